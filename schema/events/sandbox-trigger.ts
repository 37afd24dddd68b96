import {
  SANDBOX_EVENT_RATE,
  type TriggeredSandboxEvent,
  triggerSandboxEvent,
} from '../../src/domains/delivery/adapters/index.ts';
import { builder, FACADE_ONLY, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { sandboxRateText } from '../facade-facts.ts';
import { ReleaseEventTypeEnum } from './release-events.ts';

const RATE = sandboxRateText(SANDBOX_EVENT_RATE);

const TriggerSandboxEventInputRef = builder.inputType('TriggerSandboxEventInput', {
  description: 'The test event to make.',
  fields: (t) => ({
    type: t.field({ type: ReleaseEventTypeEnum, required: true, description: 'The kind of event.' }),
    releaseId: t.id({
      required: false,
      description:
        'One of your submitted releases. Omitted or null: your sandbox sample release, made (once, never ' +
        'charged, never counted as a submission) the first time.',
    }),
  }),
});

const TriggeredSandboxEventRef = builder.objectRef<TriggeredSandboxEvent>('TriggeredSandboxEvent').implement({
  description:
    'A test event just written: it reaches `releaseEvents` subscribers and your webhook endpoints like any ' +
    'event, with `test: true` in its payload.',
  fields: (t) => ({
    eventId: t.id({
      description: 'The event: `ReleaseEvent.id` on `releaseEvents`, `eventId` in the webhook delivery log.',
      resolve: (event) => String(event.eventId),
    }),
    type: t.field({
      type: ReleaseEventTypeEnum,
      description: 'The kind of event.',
      resolve: (event) => event.type,
    }),
    releaseId: t.exposeID('releaseId', { description: 'The release the event is of.' }),
    sampleRelease: t.exposeBoolean('sampleRelease', {
      description: 'True when that release is your sandbox sample.',
    }),
    payload: t.string({
      description:
        'The event body as webhooks deliver it and `ReleaseEvent.payload` gives it: JSON text, `test: true` ' +
        'included.',
      resolve: (event) => JSON.stringify(event.payload),
    }),
    payloadWire: t.field({
      ...FACADE_ONLY,
      type: 'JSON',
      description: 'The event body as webhooks deliver it, as a JSON object (`test: true` included).',
      resolve: (event) => event.payload,
    }),
    occurredAt: t.field({
      type: 'DateTime',
      description: 'When the event was made (its `occurredAt`).',
      resolve: (event) => event.occurredAt,
    }),
    remaining: t.exposeInt('remaining', {
      description: `Test events you may still ask for in the current window (${RATE}).`,
    }),
  }),
});

builder.mutationField('triggerSandboxEvent', (t) =>
  t.field({
    type: TriggeredSandboxEventRef,
    authScopes: MCP,
    description:
      'Makes a test event of one kind for one of your releases (or your sandbox sample release), to try ' +
      '`releaseEvents` subscribers and webhook endpoints: written and published like every event, in the ' +
      "kind's payload shape with `test: true`; the release itself does not change. Only where every store " +
      `is on the sandbox (else 409 \`sandbox_only\`); ${RATE} (429 beyond). 404 for a release not yours, ` +
      '409 for a draft.',
    args: { input: t.arg({ type: TriggerSandboxEventInputRef, required: true }) },
    resolve: (_root, { input }, context) =>
      triggerSandboxEvent(
        context.em,
        requirePrincipal(context).accountId,
        { type: input.type, releaseId: input.releaseId ?? null },
        {
          adapters: context.app.storeAdapters,
          rateLimits: context.app.rateLimits,
          now: context.app.clock.now(),
        },
      ),
  }),
);
