import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { FACTS, rateText } from '../../schema/facade-facts.ts';
import { AGENT_GUIDE_MARKDOWN } from '../../src/domains/catalog/index.ts';
import { COVER_ART_RATE } from '../../src/domains/cover-art/index.ts';
import { CREDITS_PER_AI_TRACK, CREDITS_PER_HUMAN_TRACK } from '../../src/domains/credits/index.ts';
import { AGENT_SUBMIT_LIMIT } from '../../src/domains/releases/index.ts';
import { filesUnder } from '../support/source-files.ts';

/**
 * A price or a limit written out as a figure: `1 USD`, `1..1000`, `2 per AI song`, `5 per 2 minutes`,
 * `15 for insiders`, `at most 5`. The facades quote these from `schema/facade-facts.ts`, which reads
 * them from the domains that own them; a `${…}` interpolation is not a figure.
 */
const WRITTEN_FIGURE =
  /\b\d+(?:\.\d+)? USD\b|\b\d+\s*\.\.\s*\d+\b|\b\d+ (?:credits? )?per (?:AI|human)\b|\b\d+ (?:calls )?per \d+ (?:seconds|minutes|hours)\b|\b\d+ for insiders\b|\bat most \d+\b/g;

const figuresIn = (text: string) =>
  [...text.replace(/\$\{[^}]*\}/g, '${}').matchAll(WRITTEN_FIGURE)].map((m) => m[0]);

it('the pattern finds the figures facades used to write out', () => {
  expect(
    figuresIn(
      "'1 credit per human song, 2 per AI song' 'credits 1..1000 at 1 USD each' '5 calls per 2 minutes' " +
        "'3 per 5 minutes, 10 for insiders' 'at most 5'",
    ),
  ).toEqual([
    '1 credit per human',
    '2 per AI',
    '1..1000',
    '1 USD',
    '5 calls per 2 minutes',
    '3 per 5 minutes',
    '10 for insiders',
    'at most 5',
  ]);
  expect(figuresIn('`${FACTS.creditsPerAiTrack} per AI song at ${FACTS.creditPriceUsd} USD`')).toEqual([]);
});

it('no facade writes out a price or a limit: each is read from the domain that owns it', () => {
  const written = filesUnder('facades').flatMap((file) =>
    figuresIn(readFileSync(file, 'utf8')).map((figure) => `${file}: ${figure}`),
  );
  expect(written).toEqual([]);
});

it('what the facades quote is what the domains charge and allow', () => {
  expect(FACTS.creditsPerHumanTrack).toBe(CREDITS_PER_HUMAN_TRACK);
  expect(FACTS.creditsPerAiTrack).toBe(CREDITS_PER_AI_TRACK);
  expect(rateText({ standard: 5, insider: 15, windowSeconds: 120 })).toBe('5 per 2 minutes, 15 for insiders');
  expect(rateText({ standard: 1, insider: 2, windowSeconds: 60 })).toBe('1 per minute, 2 for insiders');
  expect(rateText({ standard: 1, insider: 2, windowSeconds: 90 })).toBe('1 per 90 seconds, 2 for insiders');
});

it("the agent guide (catalog, which cannot import the domains that set them) quotes today's rate limits", () => {
  const text = AGENT_GUIDE_MARKDOWN.replace(/\\\n/g, '').replace(/\s+/g, ' ');
  const quoted = (rate: typeof AGENT_SUBMIT_LIMIT | typeof COVER_ART_RATE) =>
    `${rate.standard} per ${rate.windowSeconds / 60} minutes (${rate.insider} for insiders)`;
  expect(text).toContain(`submissions ${quoted(AGENT_SUBMIT_LIMIT)}`);
  expect(text).toContain(`cover art ${quoted(COVER_ART_RATE)}`);
});
