import { createHash } from 'node:crypto';
import { RULES, type RuleDescriptor, type RuleTopic, TOPIC_TITLES } from './rule-catalog.ts';

/** Warnings worth knowing before the first draft; the rest are in /metadata-rules. */
export const HITLIST_WARNING_IDS: readonly string[] = [
  'title.not-all-caps',
  'title.english-title-case',
  'title.version-in-title-version',
  'artist.one-per-field',
  'ai.disclosure-billing',
  'ai.detector-mismatch',
  'audio.lossless',
  'release-date.lead-time',
  'stores.explicit-selection',
];

const code = (text: string) => `\`${text}\``;

function renderRule(rule: RuleDescriptor): string {
  const lines = [
    `- ${code(rule.id)} (${rule.severity}): **${rule.title}.** ${rule.description}`,
    `  Fields: ${rule.fieldPaths.map(code).join(', ')}.`,
  ];
  if (rule.example) {
    lines.push(`  Example: not ${code(rule.example.bad)} but ${code(rule.example.good)}.`);
  }
  return lines.join('\n');
}

function rulesOf(topic: RuleTopic): RuleDescriptor[] {
  return RULES.filter((rule) => rule.topic === topic);
}

export function metadataRulesVersion(): string {
  return createHash('sha256').update(JSON.stringify(RULES)).digest('hex').slice(0, 12);
}

export function renderMetadataRulesMarkdown(): string {
  const sections = (Object.keys(TOPIC_TITLES) as RuleTopic[]).map((topic) =>
    [`## ${TOPIC_TITLES[topic]}`, '', ...rulesOf(topic).map(renderRule)].join('\n'),
  );
  const intro = [
    '# Metadata rules',
    '',
    `Rules version ${code(metadataRulesVersion())}. The platform checks these rules on drafts, quotes and ` +
      'submissions; this document is generated from the same rules.',
    '',
    '- **error**: blocks submission (422 `validation_failed`, `details` names the field paths, e.g. ' +
      '`tracks[0].writers[1].name`).',
    '- **warning**: does not block; reported in the draft `submissionWarnings` and in the quote.',
    '',
    'Field paths use `[]` for "every item"; responses name the item index.',
  ];
  return `${[...intro, '', sections.join('\n\n')].join('\n')}\n`;
}

export function renderHitlistMarkdown(): string {
  const line = (rule: RuleDescriptor) => `- ${code(rule.id)}: ${rule.title}`;
  const warnings = HITLIST_WARNING_IDS.map((id) => RULES.find((rule) => rule.id === id)).filter(
    (rule): rule is RuleDescriptor => rule !== undefined,
  );
  return `${[
    '# Metadata rules hitlist',
    '',
    'Read before building a release. Errors block submission; the full text is in /metadata-rules ' +
      '(tool get_metadata_rules).',
    '',
    '## Errors (block submission)',
    '',
    ...RULES.filter((rule) => rule.severity === 'error').map(line),
    '',
    '## Top warnings (reported, do not block)',
    '',
    ...warnings.map(line),
  ].join('\n')}\n`;
}
