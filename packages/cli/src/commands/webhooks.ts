import { generateWebhookSecret, type ReleaseEvent, signWebhook } from '@tributary/client';
import { type Command, InvalidArgumentError } from 'commander';
import { EXIT } from '../exit-codes.ts';
import { createOutput } from '../output.ts';
import { type GlobalOptions, signedInClient } from '../session.ts';

const EVENT_TYPES = [
  'release.status_changed',
  'release.approved',
  'release.stores_added',
  'release.takedown_completed',
] as const;
type EventType = (typeof EVENT_TYPES)[number];

/** `release.status_changed` ↔ the GraphQL `RELEASE_STATUS_CHANGED`. */
const toGraphQLType = (type: EventType) => type.toUpperCase().replace('.', '_') as ReleaseEvent['type'];
const toWebhookType = (type: string) => type.toLowerCase().replace('_', '.');

function eventTypes(value: string): EventType[] {
  const types = value.split(',').map((type) => type.trim());
  for (const type of types)
    if (!(EVENT_TYPES as readonly string[]).includes(type))
      throw new InvalidArgumentError(`unknown event ${type} (one of ${EVENT_TYPES.join(', ')})`);
  return types as EventType[];
}

function eventType(value: string): EventType {
  const [type] = eventTypes(value);
  return type!;
}

function forwardUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return url.toString();
  } catch {
    throw new InvalidArgumentError('an http(s) URL');
  }
}

export function registerWebhookCommands(program: Command): void {
  const webhooks = program
    .command('webhooks')
    .description('Receive the account’s webhook events locally, and make test events')
    .addHelpText(
      'after',
      '\nExamples:\n  $ tributary webhooks listen --forward-to http://localhost:3000/hook\n  $ tributary webhooks trigger release.status_changed',
    );

  webhooks
    .command('listen')
    .description('Forward the account’s release events to a local URL, signed as real deliveries are')
    .requiredOption('--forward-to <url>', 'where to POST each event', forwardUrl)
    .option(
      '--events <types>',
      `comma-separated kinds to forward (default all): ${EVENT_TYPES.join(', ')}`,
      eventTypes,
    )
    .addHelpText(
      'after',
      `
Prints a signing secret for this session (whsec_…) once at start: verify the forwarded POSTs with it
exactly as with an endpoint's secret (x-svc-signature, x-svc-signature-timestamped and the Standard
Webhooks webhook-id/webhook-timestamp/webhook-signature headers). The body is the event's webhook body,
byte for byte. Runs until Ctrl-C. With --json, a JSON line for the start and one per forwarded event.

Examples:
  $ tributary webhooks listen --forward-to http://localhost:3000/hook
  $ tributary webhooks listen --forward-to http://localhost:3000/hook --events release.status_changed,release.approved`,
    )
    .action(async (options: { forwardTo: string; events?: EventType[] }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const json = Boolean(globals.json);
      const client = await signedInClient(globals);
      const secret = generateWebhookSecret();
      const emit = (document: Record<string, unknown>, text: string) =>
        process.stdout.write(json ? `${JSON.stringify(document)}\n` : `${text}\n`);
      const events = client.releaseEvents(options.events ? { types: options.events.map(toGraphQLType) } : {});
      // A pending next() holds back the iterator's return(): close the socket and end here.
      const stop = () => {
        void client.close().finally(() => process.exit(EXIT.ok));
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
      emit(
        { ready: true, secret, forwardTo: options.forwardTo, events: options.events ?? EVENT_TYPES },
        `Ready! Your webhook signing secret is ${secret}\nForwarding ${(options.events ?? ['all events']).join(', ')} to ${options.forwardTo} (^C to quit)`,
      );
      try {
        for await (const event of events) {
          const type = toWebhookType(event.type);
          const headers = await signWebhook({
            secret,
            body: event.payload,
            eventType: type,
            deliveryId: event.id,
          });
          let status: number | null = null;
          let failure: string | null = null;
          try {
            const response = await fetch(options.forwardTo, { method: 'POST', headers, body: event.payload });
            await response.arrayBuffer();
            status = response.status;
          } catch (error) {
            failure =
              (error as Error).cause instanceof Error
                ? ((error as Error).cause as Error).message
                : String(error);
          }
          emit(
            {
              eventId: event.id,
              type,
              releaseId: event.releaseId,
              forwardedTo: options.forwardTo,
              status,
              error: failure,
            },
            `${event.occurredAt}  ${type}  ${event.releaseId}  → POST ${options.forwardTo} ${status ?? `failed: ${failure}`}`,
          );
        }
      } finally {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        await client.close();
      }
    });

  webhooks
    .command('trigger')
    .description('Ask the sandbox for one test event of a kind (it reaches listeners and endpoints)')
    .argument('<event>', `the kind: ${EVENT_TYPES.join(', ')}`, eventType)
    .option('--release <id>', 'the release it is of (default: the account’s sandbox sample release)')
    .addHelpText(
      'after',
      '\nExamples:\n  $ tributary webhooks trigger release.status_changed\n  $ tributary webhooks trigger release.approved --release 9d6c…',
    )
    .action(async (type: EventType, options: { release?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      const client = await signedInClient(globals);
      const { data } = await client.rest.POST('/sandbox/events', {
        body: { type, ...(options.release ? { release_id: options.release } : {}) },
      });
      const made = data!;
      out.result(
        made,
        `Triggered ${made.type} ${made.event_id} on release ${made.release_id}${made.sample_release ? ' (the sandbox sample)' : ''}; ${made.remaining} left this minute`,
      );
    });
}
