import { describe, expect, it } from 'vitest';
import { evaluate, track, validPayload } from './helpers.ts';

describe('did you mean', () => {
  it('an unknown field is a warning naming the closest known field, and blocks nothing', async () => {
    const payload = validPayload();
    track(payload, 0).explicit = true;
    payload.release.titel = 'typo';
    payload.release.releaseDate = '2027-01-01';
    const issues = await evaluate(payload);
    const unknown = issues.filter((i) => i.rule === 'fields.unknown');
    expect(unknown.map((i) => [i.path, i.suggestion])).toEqual([
      ['release.releaseDate', 'release_date'],
      ['release.titel', 'title'],
      ['tracks[0].explicit', 'explicit_flag'],
    ]);
    expect(unknown.every((i) => i.severity === 'warning')).toBe(true);
    expect(unknown[2]?.message).toBe('Unknown field "explicit" is ignored. Did you mean "explicit_flag"?');
  });

  it('a field with nothing close is reported without a guess; aliases and known fields are not reported', async () => {
    const payload = validPayload();
    payload.release.zzz_internal = 1;
    payload.release.second_genre = 'Indie Pop';
    track(payload, 0).containsAi = true;
    const issues = await evaluate(payload);
    const unknown = issues.filter((i) => i.rule === 'fields.unknown');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ path: 'release.zzz_internal' });
    expect(unknown[0]?.suggestion).toBeUndefined();
  });

  it('a genre outside the catalogue is a warning with the closest genre; case does not matter', async () => {
    for (const [genre, closest] of [
      ['Hiphop', 'Hip-Hop/Rap'],
      ['Electornic', 'Electronic'],
      ['rnb soul', 'R&B/Soul'],
    ] as const) {
      const payload = validPayload();
      payload.release.genre = genre;
      const issue = (await evaluate(payload)).find((i) => i.rule === 'genre.not-in-catalogue');
      expect(issue, genre).toMatchObject({ path: 'release.genre', severity: 'warning', suggestion: closest });
      expect(issue?.message).toContain(`Did you mean "${closest}"?`);
    }
    const fine = validPayload();
    fine.release.genre = 'pop';
    expect((await evaluate(fine)).some((i) => i.rule === 'genre.not-in-catalogue')).toBe(false);
  });
});
