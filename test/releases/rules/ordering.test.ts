import { describe, expect, it } from 'vitest';
import {
  evaluateRules,
  hasErrors,
  normaliseSubmission,
} from '../../../src/domains/releases/rules/engine/index.ts';
import {
  AUDIO_1,
  AUDIO_2,
  COVER_URL,
  fakeContext,
  type Json,
  type Payload,
  validPayload,
} from './helpers.ts';

/** Twelve tracks, several of them faulty, to check ordering across indices 2 and 10. */
function busyPayload(): Payload {
  const payload = validPayload();
  const base = payload.tracks[0] as Json;
  payload.tracks = Array.from({ length: 12 }, (_, index) => ({
    ...structuredClone(base),
    title: `Harbor Song ${['One', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight', 'Nine', 'Ten', 'Eleven', 'Twelve'][index]}`,
    audio_file_url: index % 2 === 0 ? AUDIO_1 : AUDIO_2,
  }));
  const tracks = payload.tracks;
  (tracks[10] as Json).title = 'NIGHT DRIVE FT. JANE DOE';
  (tracks[10] as Json).explicit_flag = 'no';
  (tracks[2] as Json).track_type = 'remix';
  (tracks[2] as Json).title = 'night drive';
  (tracks[1] as Json).writers = [];
  payload.release.title = 'LIGHTS OVER THE HARBOR';
  payload.release.distribution_store_ids = [];
  return payload;
}

describe('issue ordering', () => {
  it('sorts by path (indices numerically), then by rule id', async () => {
    const issues = await evaluateRules(normaliseSubmission(busyPayload()), fakeContext());
    expect(issues.map((issue) => `${issue.path} ${issue.rule}`)).toEqual([
      'release.distribution_store_ids stores.non-empty-selection',
      'release.title title.not-all-caps',
      'tracks[1].writers required.writers',
      'tracks[2].title title.not-all-lowercase',
      'tracks[2].track_type track-type.no-remix',
      'tracks[10].explicit_flag required.explicit-flag',
      'tracks[10].title title.feat-format',
      'tracks[10].title title.not-all-caps',
    ]);
    expect(hasErrors(issues)).toBe(true);
  });

  it('gives the same list whatever order the lookups answer in', async () => {
    const payload = busyPayload();
    (payload.tracks[3] as Json).isrc = 'USAB12400003';
    (payload.tracks[5] as Json).isrc = 'USAB12400005';
    const answers = {
      notOwned: [AUDIO_2],
      isrcsInUse: ['USAB12400003', 'USAB12400005'],
      facts: { [COVER_URL]: { warnings: ['cover_art_upscaled'], lossless: null } },
      aiDetections: { [AUDIO_1]: { containsAi: true } },
    };
    const fast = await evaluateRules(normaliseSubmission(payload), fakeContext(answers));
    const slow = await evaluateRules(
      normaliseSubmission(payload),
      fakeContext({ ...answers, delays: { [AUDIO_1]: 15, [COVER_URL]: 10, USAB12400003: 5 } }),
    );
    const reversed = await evaluateRules(
      normaliseSubmission(payload),
      fakeContext({ ...answers, delays: { [AUDIO_2]: 15, USAB12400005: 10 } }),
    );
    expect(slow).toEqual(fast);
    expect(reversed).toEqual(fast);
    expect(fast.filter((issue) => issue.rule === 'audio.owned-file').map((issue) => issue.path)).toEqual(
      [1, 3, 5, 7, 9, 11].map((index) => `tracks[${index}].audio_file_url`),
    );
    expect(
      fast.filter((issue) => issue.rule === 'isrc.unique-in-catalog').map((issue) => issue.path),
    ).toEqual(['tracks[3].isrc', 'tracks[5].isrc']);
  });

  it('looks each distinct file and identifier up once, concurrently', async () => {
    const payload = busyPayload();
    payload.release.upc = '036000291452';
    (payload.tracks[0] as Json).isrc = 'USAB12400001';
    const ctx = fakeContext();
    await evaluateRules(normaliseSubmission(payload), ctx);
    const sorted = [...ctx.calls].sort();
    expect(sorted).toEqual(
      [
        `ownsFile cover-art ${COVER_URL}`,
        `fileFacts ${COVER_URL}`,
        `ownsFile audio ${AUDIO_1}`,
        `fileFacts ${AUDIO_1}`,
        `aiDetection ${AUDIO_1}`,
        `registryMatch ${AUDIO_1}`,
        `ownsFile audio ${AUDIO_2}`,
        `fileFacts ${AUDIO_2}`,
        `aiDetection ${AUDIO_2}`,
        `registryMatch ${AUDIO_2}`,
        'isrcInUse USAB12400001',
        'upcInUse 036000291452',
      ].sort(),
    );
    expect(ctx.maxInFlight()).toBe(ctx.calls.length);
  });

  it('passes a lookup failure on instead of hiding it', async () => {
    const ctx = fakeContext();
    ctx.fileFacts = async () => {
      throw new Error('storage down');
    };
    await expect(evaluateRules(normaliseSubmission(validPayload()), ctx)).rejects.toThrow('storage down');
  });
});

describe('hasErrors', () => {
  it('is true only when an error is among the issues', () => {
    expect(hasErrors([])).toBe(false);
    expect(
      hasErrors([
        { rule: 'audio.lossless', severity: 'warning', path: 'tracks[0].audio_file_url', message: 'm' },
      ]),
    ).toBe(false);
    expect(hasErrors([{ rule: 'required.tracks', severity: 'error', path: 'tracks', message: 'm' }])).toBe(
      true,
    );
  });
});
