import { describe, expect, it } from 'vitest';
import { hasErrors } from '../../../src/domains/releases/rules/engine/index.ts';
import type { RuleIssue } from '../../../src/domains/releases/rules/engine/types.ts';
import { evaluate, type Json, type Payload, track, validPayload } from './helpers.ts';

const at = (issues: RuleIssue[], path: string) => issues.filter((issue) => issue.path === path);
const rulesAt = (issues: RuleIssue[], path: string) => at(issues, path).map((issue) => issue.rule);

async function withPayload(mutate: (payload: Payload) => void): Promise<RuleIssue[]> {
  const payload = validPayload();
  mutate(payload);
  return evaluate(payload);
}

describe('the /release-schema example', () => {
  it('produces no errors and no warnings', async () => {
    const issues = await evaluate(validPayload());
    expect(issues.filter((issue) => issue.severity === 'error')).toEqual([]);
    expect(hasErrors(issues)).toBe(false);
    expect(issues).toEqual([]);
  });
});

describe('spec examples', () => {
  it('accepts title_version "Remix" (with a Remixer credit nothing at all is reported)', async () => {
    const bare = await withPayload((p) => {
      track(p, 0).title_version = 'Remix';
    });
    expect(hasErrors(bare)).toBe(false);
    expect(bare.map((issue) => issue.rule)).toEqual(['title-version.remixer-credit']);
    const credited = await withPayload((p) => {
      track(p, 0).title_version = 'Remix';
      (track(p, 0).contributors as Json[]).push({ name: 'Jane Doe', role: 'Remixer' });
    });
    expect(credited).toEqual([]);
  });

  it('rejects track_type "remix" and suggests original', async () => {
    const issues = await withPayload((p) => {
      track(p, 1).track_type = 'remix';
      track(p, 1).title_version = 'Remix';
      track(p, 1).contributors = [{ name: 'Jane Doe', role: 'Remixer' }];
    });
    expect(issues).toEqual([
      expect.objectContaining({
        rule: 'track-type.no-remix',
        severity: 'error',
        path: 'tracks[1].track_type',
        suggestion: 'original',
      }),
    ]);
  });

  it('rejects the bare title_version "Cover" but allows a kind of cover', async () => {
    for (const version of ['Cover', '(Cover)', ' Cover ']) {
      const issues = await withPayload((p) => {
        track(p, 0).track_type = 'cover';
        track(p, 0).title_version = version;
      });
      expect(issues.map((issue) => [issue.rule, issue.severity, issue.path])).toEqual([
        ['title-version.no-bare-cover', 'error', 'tracks[0].title_version'],
      ]);
    }
    const release = await withPayload((p) => {
      p.release.title_version = 'Cover';
    });
    expect(rulesAt(release, 'release.title_version')).toContain('title-version.no-bare-cover');
    const acoustic = await withPayload((p) => {
      track(p, 0).track_type = 'cover';
      track(p, 0).title_version = 'Acoustic Cover';
    });
    expect(acoustic).toEqual([]);
  });

  describe('artist links', () => {
    const album = 'https://open.dspone.example/album/4aawyAB9vmqN3uQ7FjRGTy';
    const cases: [string, (p: Payload, link: string) => void, string][] = [
      [
        'release.dspone_artist_url',
        (p, link) => {
          p.release.dspone_artist_url = link;
        },
        album,
      ],
      [
        'release.dsptwo_artist_url',
        (p, link) => {
          p.release.dsptwo_artist_url = link;
        },
        'https://music.dsptwo.example/us/album/night-drive/1440833098',
      ],
      [
        'release.primary_artists[0].dspone_artist_url',
        (p, link) => {
          p.release.primary_artists = [{ name: 'Lena Marlow', dspone_artist_url: link }];
        },
        'https://open.dspone.example/track/4aawyAB9vmqN3uQ7FjRGTy',
      ],
      [
        'release.primary_artists[0].dsptwo_artist_url',
        (p, link) => {
          p.release.primary_artists = [{ name: 'Lena Marlow', dsptwo_artist_url: link }];
        },
        'https://music.dsptwo.example/us/song/night-drive/1440833098',
      ],
      [
        'release.primary_artists[0].dspthree_artist_url',
        (p, link) => {
          p.release.primary_artists = [{ name: 'Lena Marlow', dspthree_artist_url: link }];
        },
        'https://dspthree.example/playlist/123',
      ],
      [
        'tracks[1].primary_artists[0].dspone_artist_url',
        (p, link) => {
          track(p, 1).primary_artists = [{ name: 'Lena Marlow', dspone_artist_url: link }];
        },
        'dspone:playlist:37i9dQZF1DXcBWIGoYBM5M',
      ],
      [
        'release.dspone_artist_urls[0]',
        (p, link) => {
          p.release.dspone_artist_urls = [link];
        },
        'dspone:album:4aawyAB9vmqN3uQ7FjRGTy',
      ],
      [
        'release.dsptwo_artist_urls[0]',
        (p, link) => {
          p.release.dsptwo_artist_urls = [link];
        },
        'https://music.dsptwo.example/us/album/night-drive/1440833098?i=1440833100',
      ],
    ];
    it.each(cases)('rejects an album, track, song or playlist link in %s', async (path, set, link) => {
      const issues = await withPayload((p) => set(p, link));
      expect(issues.map((issue) => [issue.rule, issue.severity, issue.path])).toEqual([
        ['link.artist-profile-only', 'error', path],
      ]);
    });

    it('accepts a dspone profile URL, a bare id and a dspone:artist URI', async () => {
      for (const link of [
        'https://open.dspone.example/artist/0OdUWJ0sBjDrqHygGUXeCF',
        'https://open.dspone.example/intl-de/artist/0OdUWJ0sBjDrqHygGUXeCF?si=abc',
        '0OdUWJ0sBjDrqHygGUXeCF',
        'dspone:artist:0OdUWJ0sBjDrqHygGUXeCF',
      ]) {
        expect(
          await withPayload((p) => {
            p.release.dspone_artist_url = link;
          }),
          link,
        ).toEqual([]);
      }
    });

    it('accepts null positions in the positional arrays', async () => {
      const issues = await withPayload((p) => {
        p.release.primary_artists = [{ name: 'Lena Marlow' }, { name: 'Theo Brandt' }];
        p.release.dspone_artist_urls = [null, '0OdUWJ0sBjDrqHygGUXeCF'];
        p.release.dsptwo_artist_urls = [
          'https://music.dsptwo.example/us/artist/lena-marlow/1440833098',
          null,
        ];
      });
      expect(issues).toEqual([]);
    });

    it('requires the dsptwo profile form and suggests https', async () => {
      expect(
        await withPayload((p) => {
          p.release.dsptwo_artist_url = 'https://music.dsptwo.example/us/artist/jane-doe/1440833098';
        }),
      ).toEqual([]);
      for (const link of ['1440833098', 'https://music.dsptwo.example/artist/jane-doe/1440833098']) {
        const issues = await withPayload((p) => {
          p.release.dsptwo_artist_url = link;
        });
        expect(issues.map((issue) => [issue.rule, issue.path])).toEqual([
          ['link.dsptwo-profile-form', 'release.dsptwo_artist_url'],
        ]);
      }
      const http = await withPayload((p) => {
        p.release.dsptwo_artist_url = 'http://music.dsptwo.example/us/artist/jane-doe/1440833098';
      });
      expect(http[0]?.suggestion).toBe('https://music.dsptwo.example/us/artist/jane-doe/1440833098');
    });
  });

  describe('script codes', () => {
    it('rejects a code whose language differs from metadata_language at release level', async () => {
      const issues = await withPayload((p) => {
        p.release.metadata_language = 'ko';
        p.release.language_and_script_code = 'ja-Jpan';
      });
      expect(issues).toContainEqual({
        rule: 'script-code.language-match',
        severity: 'error',
        path: 'release.language_and_script_code',
        message: expect.stringContaining('"ja"'),
        suggestion: 'ko-Kore',
      });
    });

    it('compares a locals entry with its own language and a track code with the track language', async () => {
      const issues = await withPayload((p) => {
        p.release.title_locals = [{ name: '港の灯り', language: 'ja', language_and_script_code: 'ko-Kore' }];
        track(p, 0).language = 'ko';
        track(p, 0).language_and_script_code = 'ja-Latn';
        track(p, 1).artist_locals = [
          { name: 'レナ・マーロウ', language: 'ja', language_and_script_code: 'ja-Kana' },
        ];
      });
      expect(issues.map((issue) => [issue.rule, issue.path, issue.suggestion])).toEqual([
        ['script-code.language-match', 'release.title_locals[0].language_and_script_code', 'ja-Jpan'],
        ['script-code.language-match', 'tracks[0].language_and_script_code', 'ko-Latn'],
      ]);
    });

    it('warns, and does not fail, on a code it cannot confirm', async () => {
      const issues = await withPayload((p) => {
        p.release.language_and_script_code = 'en-Zzzz';
        delete track(p, 0).language;
        track(p, 0).language_and_script_code = 'en-Latn';
        p.release.artist_locals = [{ name: 'Лена', languageId: 12, language_and_script_code: 'ru-Cyrl' }];
      });
      expect(hasErrors(issues)).toBe(false);
      expect(issues.map((issue) => [issue.rule, issue.severity, issue.path])).toEqual([
        ['script-code.unconfirmed-dropped', 'warning', 'release.artist_locals[0].language_and_script_code'],
        ['script-code.unconfirmed-dropped', 'warning', 'release.language_and_script_code'],
        ['script-code.unconfirmed-dropped', 'warning', 'tracks[0].language_and_script_code'],
      ]);
    });
  });

  describe('store selection', () => {
    it('rejects an empty array', async () => {
      const issues = await withPayload((p) => {
        p.release.distribution_store_ids = [];
      });
      expect(issues.map((issue) => [issue.rule, issue.severity, issue.path])).toEqual([
        ['stores.non-empty-selection', 'error', 'release.distribution_store_ids'],
      ]);
    });

    it('takes null as all stores without any issue', async () => {
      expect(
        await withPayload((p) => {
          p.release.distribution_store_ids = null;
        }),
      ).toEqual([]);
    });

    it('takes an omitted selection as all stores with only the explicit-selection warning', async () => {
      const issues = await withPayload((p) => delete p.release.distribution_store_ids);
      expect(issues.map((issue) => [issue.rule, issue.severity])).toEqual([
        ['stores.explicit-selection', 'warning'],
      ]);
    });

    it('accepts aliases and numeric strings, and names unknown entries by position', async () => {
      const issues = await withPayload((p) => {
        p.release.distribution_store_ids = ['Apple Music', '301', 'TIK_TOK', 999, 'myspace', true];
      });
      expect(issues.map((issue) => [issue.rule, issue.path])).toEqual([
        ['stores.known-store', 'release.distribution_store_ids[3]'],
        ['stores.known-store', 'release.distribution_store_ids[4]'],
        ['stores.known-store', 'release.distribution_store_ids[5]'],
      ]);
    });
  });

  describe('identifiers', () => {
    it('normalises ISRCs before checking them, and suggests a repaired one', async () => {
      const ok = await withPayload((p) => {
        track(p, 0).isrc = 'ISRC us-ab1-24-00001';
        track(p, 1).isrc = 'ISRC12400001';
      });
      expect(ok).toEqual([]);
      const bad = await withPayload((p) => {
        track(p, 0).isrc = 'US.AB1.24.OOOO1';
      });
      expect(bad).toEqual([
        expect.objectContaining({ rule: 'isrc.format', path: 'tracks[0].isrc', suggestion: 'USAB12400001' }),
      ]);
    });

    it('checks ISRC uniqueness on the normalised form', async () => {
      const issues = await withPayload((p) => {
        track(p, 0).isrc = 'USAB12400001';
        track(p, 1).isrc = 'us-ab1-24-00001';
      });
      expect(issues).toEqual([
        expect.objectContaining({ rule: 'isrc.unique-in-release', path: 'tracks[1].isrc' }),
      ]);
      expect(issues[0]?.message).toContain('tracks[0]');
    });

    it('accepts 12-digit UPCs and 13-digit EANs with a valid check digit', async () => {
      for (const upc of ['036000291452', '4006381333931']) {
        expect(
          await withPayload((p) => {
            p.release.upc = upc;
          }),
          upc,
        ).toEqual([]);
      }
      const separated = await withPayload((p) => {
        p.release.upc = '0360-0029-1452';
      });
      expect(separated).toEqual([
        expect.objectContaining({ rule: 'upc.format', path: 'release.upc', suggestion: '036000291452' }),
      ]);
    });
  });

  describe('release date', () => {
    it('warns below seven days of lead time, not at seven', async () => {
      expect(
        await withPayload((p) => {
          p.release.release_date = '2026-03-08';
        }),
      ).toEqual([]);
      const six = await withPayload((p) => {
        p.release.release_date = '2026-03-07';
      });
      expect(six).toEqual([
        expect.objectContaining({
          rule: 'release-date.lead-time',
          severity: 'warning',
          suggestion: '2026-03-08',
        }),
      ]);
    });

    it('rejects impossible dates and other spellings', async () => {
      for (const date of ['2026-02-29', '2026-13-01', '20260401', '2026-4-1']) {
        const issues = await withPayload((p) => {
          p.release.release_date = date;
        });
        expect(rulesAt(issues, 'release.release_date'), date).toEqual(['release-date.format']);
      }
      const slashes = await withPayload((p) => {
        p.release.release_date = '2026/04/01';
      });
      expect(slashes[0]?.suggestion).toBe('2026-04-01');
    });
  });

  describe('type errors', () => {
    it('reports explicit_flag "yes" as "must be true or false"', async () => {
      const issues = await withPayload((p) => {
        track(p, 0).explicit_flag = 'yes';
      });
      expect(issues).toEqual([
        {
          rule: 'required.explicit-flag',
          severity: 'error',
          path: 'tracks[0].explicit_flag',
          message: expect.stringContaining('must be true or false'),
        },
      ]);
    });

    it('reports writers "x", a non-array tracks and a non-object track on the field', async () => {
      const writers = await withPayload((p) => {
        track(p, 1).writers = 'x';
      });
      expect(writers.map((issue) => [issue.rule, issue.path])).toEqual([
        ['required.writers', 'tracks[1].writers'],
      ]);
      const tracks = await withPayload((p) => {
        (p as Json).tracks = 'x';
      });
      expect(tracks.map((issue) => [issue.rule, issue.path])).toEqual([['required.tracks', 'tracks']]);
      expect(tracks[0]?.message).toContain('must be an array');
      const nullTrack = await withPayload((p) => {
        (p.tracks as unknown[])[1] = null;
      });
      expect(nullTrack.map((issue) => [issue.rule, issue.path])).toEqual([['required.tracks', 'tracks[1]']]);
    });

    it('names the exact writer path of a missing writer name', async () => {
      const issues = await withPayload((p) => {
        (track(p, 0).writers as Json[])[0] = { share_percent: 60 };
      });
      expect(issues.map((issue) => [issue.rule, issue.path])).toEqual([
        ['required.writer-name', 'tracks[0].writers[0].name'],
      ]);
    });

    it('reports wrongly typed shares, preview starts and store selections', async () => {
      const issues = await withPayload((p) => {
        ((track(p, 0).writers as Json[])[0] as Json).share_percent = '60';
        track(p, 1).preview_start_seconds = '30';
        p.release.distribution_store_ids = 'all';
      });
      expect(issues.map((issue) => [issue.rule, issue.path])).toEqual([
        ['stores.non-empty-selection', 'release.distribution_store_ids'],
        ['writers.share-range', 'tracks[0].writers[0].share_percent'],
        ['track.preview-start', 'tracks[1].preview_start_seconds'],
      ]);
    });
  });

  describe('suggestions', () => {
    it.each([
      ['NIGHT DRIVE', 'title.not-all-caps', 'Night Drive'],
      ['the end of the world as we know it', 'title.not-all-lowercase', 'The End of the World as We Know It'],
      ['Walking In The Rain', 'title.english-title-case', 'Walking in the Rain'],
      ['Night Drive ft. Jane Doe', 'title.feat-format', 'Night Drive (feat. Jane Doe)'],
      [
        'Night Drive featuring Jane Doe, John Roe & Ana Ruiz',
        'title.feat-format',
        'Night Drive (feat. Jane Doe, John Roe & Ana Ruiz)',
      ],
      ['Night Drive (feat Jane Doe)', 'title.feat-format', 'Night Drive (feat. Jane Doe)'],
      ['Night Drive w/ Jane Doe', 'title.feat-format', 'Night Drive (feat. Jane Doe)'],
      ['Lena Marlow - Night Drive', 'title.no-artist-name', 'Night Drive'],
      ['Night Drive (Acoustic)', 'title.version-in-title-version', 'Night Drive'],
      ['Night Drive (Jane Doe Rmx)', 'title-version.remix', 'Night Drive'],
      ['Summer Hits Volume 2', 'title.vol-part-format', 'Summer Hits, Vol. 2'],
      ['Summer Hits (Pt. 3)', 'title.vol-part-format', 'Summer Hits, Pt. 3'],
      ['Night Drive @lena #summer', 'title.no-url-handle-hashtag', 'Night Drive'],
    ])('%s -> %s suggests %s', async (title, rule, suggestion) => {
      const issues = await withPayload((p) => {
        track(p, 0).title = title;
      });
      expect(at(issues, 'tracks[0].title')).toContainEqual(expect.objectContaining({ rule, suggestion }));
    });

    it('keeps correct titles quiet', async () => {
      for (const title of [
        'Night River (feat. Theo Brandt)',
        'Night Drive (feat. Jane Doe & John Roe)',
        'A Heroic Feat of Strength',
        'Summer Hits, Vol. 2',
        'Clean',
        '#1 Crush',
        'DNA',
        'iPhone Song',
        'Rock-and-roll All Nite',
      ]) {
        const issues = await withPayload((p) => {
          track(p, 0).title = title;
        });
        expect(issues, title).toEqual([]);
      }
    });

    it('applies English title case only to English titles', async () => {
      const spanish = await withPayload((p) => {
        track(p, 0).title = 'Noche de Verano';
        track(p, 0).language = 'es';
        track(p, 1).title = "2nd Chance for Rock 'n' Roll";
      });
      expect(spanish).toEqual([]);
      const lowercase = await withPayload((p) => {
        p.release.metadata_language = 'es';
        p.release.language_and_script_code = 'es-Latn';
        p.release.title = 'luces sobre el puerto';
      });
      expect(lowercase).toEqual([
        expect.objectContaining({
          rule: 'title.not-all-lowercase',
          path: 'release.title',
          suggestion: 'Luces sobre el puerto',
        }),
      ]);
    });

    it('suggests Various Artists for VA and spelled-out names without extra information', async () => {
      const issues = await withPayload((p) => {
        track(p, 0).primary_artist_name = 'VA';
        track(p, 1).primary_artist_name = 'Lena Marlow (Official)';
      });
      expect(issues.map((issue) => [issue.rule, issue.path, issue.suggestion])).toEqual([
        ['artist.no-va-abbreviation', 'tracks[0].primary_artist_name', 'Various Artists'],
        ['artist.no-extra-info', 'tracks[1].primary_artist_name', 'Lena Marlow'],
      ]);
    });

    it('suggests the share that makes 100', async () => {
      const issues = await withPayload((p) => {
        ((track(p, 1).writers as Json[])[1] as Json).share_percent = 30;
      });
      expect(issues).toEqual([
        expect.objectContaining({
          rule: 'writers.share-total',
          path: 'tracks[1].writers[1].share_percent',
          suggestion: '50',
        }),
      ]);
    });
  });

  describe('artists', () => {
    it('allows Various Artists on a compilation of four or more artists only', async () => {
      const va = (p: Payload) => {
        p.release.primary_artist_name = 'Various Artists';
        p.release.primary_artists = [{ name: 'Various Artists' }];
      };
      const few = await withPayload(va);
      expect(rulesAt(few, 'release.primary_artist_name')).toEqual(['artist.various-artists-release-only']);
      const compilation = await withPayload((p) => {
        va(p);
        track(p, 0).primary_artist_name = 'Lena Marlow';
        track(p, 1).primary_artist_name = 'Jane Doe';
        track(p, 1).primary_artists = [{ name: 'Jane Doe' }, { name: 'John Roe' }, { name: 'Ana Ruiz' }];
      });
      expect(compilation).toEqual([]);
    });
  });

  describe('AI disclosure', () => {
    it('reports false or empty disclosure values, not a true one', async () => {
      const issues = await withPayload((p) => {
        track(p, 0).contains_ai = true;
        track(p, 1).ai_generation_credits = [];
      });
      expect(issues.map((issue) => [issue.rule, issue.path])).toEqual([
        ['ai.disclosure-billing', 'tracks[1].ai_generation_credits'],
      ]);
    });

    it('does not ask the detector about a track declared AI', async () => {
      const payload = validPayload();
      track(payload, 0).contains_ai = true;
      const issues = await evaluate(payload, {
        aiDetections: { '/api/files/audio/<user_id>/track-1.flac': { containsAi: true } },
      });
      expect(issues).toEqual([]);
    });
  });
});
