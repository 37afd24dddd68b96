import { AGGREGATE_STATUSES, RELEASE_STATUSES, RULE_SEVERITIES } from '../../src/domains/releases/index.ts';
import { enumFromList } from '../enums.ts';

export const ReleaseStatusEnum = enumFromList('ReleaseStatus', RELEASE_STATUSES, {
  description: 'Where a release stands in its life.',
  valueDescriptions: {
    draft: 'Being prepared; nothing is charged or delivered.',
    submitted: 'Paid and handed over.',
  },
});

export const AggregateStatusEnum = enumFromList('AggregateStatus', AGGREGATE_STATUSES, {
  description: 'Where a submitted release stands across its stores.',
  valueDescriptions: {
    queued: 'The distributor does not have the release yet.',
    pending: 'Stores are inspecting it.',
    delivered: 'Every store has it; not yet live everywhere.',
    distributed: 'Live in every store.',
    taken_down: 'Removed from every store.',
  },
});

export const RuleSeverityEnum = enumFromList('RuleSeverity', RULE_SEVERITIES, {
  description: 'How much a rule finding weighs.',
  valueDescriptions: { error: 'Blocks submission.', warning: 'Reported; submission goes ahead.' },
});
