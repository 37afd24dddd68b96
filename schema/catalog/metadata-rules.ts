import { AGENT_GUIDE_MARKDOWN } from '../../src/domains/catalog/index.ts';
import {
  metadataRulesVersion,
  RULE_TOPICS,
  RULES,
  type RuleDescriptor,
  renderHitlistMarkdown,
  renderMetadataRulesMarkdown,
} from '../../src/domains/releases/index.ts';
import { builder, PUBLIC } from '../builder.ts';
import { enumFromList } from '../enums.ts';
import { RuleSeverityEnum } from '../releases/enums.ts';

const RuleTopicEnum = enumFromList('RuleTopic', RULE_TOPICS, {
  description: 'The part of the metadata policy a rule belongs to.',
});

const RuleExampleRef = builder
  .objectRef<NonNullable<RuleDescriptor['example']>>('MetadataRuleExample')
  .implement({
    description: 'A value that breaks a rule, and one that follows it.',
    fields: (t) => ({ bad: t.exposeString('bad'), good: t.exposeString('good') }),
  });

const RuleRef = builder.objectRef<RuleDescriptor>('MetadataRule').implement({
  description: 'One check of the rules engine. `error` blocks submission; `warning` is reported.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable rule id, quoted in validation details.' }),
    severity: t.expose('severity', { type: RuleSeverityEnum }),
    topic: t.expose('topic', { type: RuleTopicEnum }),
    title: t.exposeString('title'),
    description: t.exposeString('description'),
    fieldPaths: t.exposeStringList('fieldPaths'),
    example: t.field({ type: RuleExampleRef, nullable: true, resolve: (rule) => rule.example ?? null }),
  }),
});

interface MetadataRules {
  version: string;
}

const MetadataRulesRef = builder.objectRef<MetadataRules>('MetadataRules').implement({
  description:
    'The metadata policy, generated from the rules engine so the document never drifts from the code.',
  fields: (t) => ({
    version: t.exposeString('version'),
    markdown: t.string({ resolve: () => renderMetadataRulesMarkdown() }),
    hitlist: t.string({
      description: 'The short list an agent must read after connecting.',
      resolve: () => renderHitlistMarkdown(),
    }),
    rules: t.field({ type: [RuleRef], resolve: () => [...RULES] }),
  }),
});

builder.queryField('metadataRules', (t) =>
  t.field({
    type: MetadataRulesRef,
    description:
      'The metadata rules the platform checks, generated from the rules engine (also as markdown).',
    authScopes: PUBLIC,
    resolve: () => ({ version: metadataRulesVersion() }),
  }),
);

builder.queryField('agentGuide', (t) =>
  t.string({
    authScopes: PUBLIC,
    description: 'The guide for AI agents (markdown).',
    resolve: () => AGENT_GUIDE_MARKDOWN,
  }),
);
