import type { RuleIssue } from '../../src/domains/releases/index.ts';
import { builder } from '../builder.ts';
import { RuleSeverityEnum } from './enums.ts';

export const RuleIssueRef = builder.objectRef<RuleIssue>('RuleIssue').implement({
  description: 'A rule finding on a field: `error` blocks submission, `warning` is reported.',
  fields: (t) => ({
    rule: t.exposeString('rule', { description: 'Stable rule id (see metadataRules).' }),
    severity: t.expose('severity', { type: RuleSeverityEnum }),
    path: t.exposeString('path', { description: 'Field path, e.g. `tracks[0].writers[0].name`.' }),
    message: t.exposeString('message'),
    suggestion: t.exposeString('suggestion', { nullable: true }),
  }),
});
