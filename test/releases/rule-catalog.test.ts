import { describe, expect, it } from 'vitest';
import { findLanguageScriptCode } from '../../src/domains/catalog/language-script-codes.ts';
import { findStore } from '../../src/domains/catalog/stores.ts';
import { releaseSchema } from '../../src/domains/releases/release-schema.ts';
import {
  HITLIST_WARNING_IDS,
  metadataRulesVersion,
  renderHitlistMarkdown,
  renderMetadataRulesMarkdown,
} from '../../src/domains/releases/rules/render-rules.ts';
import { RULES, type RuleTopic, TOPIC_TITLES } from '../../src/domains/releases/rules/rule-catalog.ts';

const ruleById = (id: string) => RULES.find((rule) => rule.id === id);

describe('rule catalog', () => {
  it('has unique, stable-looking ids', () => {
    const ids = RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+(-[a-z0-9]+)*)+$/);
  });

  it('gives every rule a title, description and at least one field path', () => {
    for (const rule of RULES) {
      expect(rule.title.trim(), rule.id).not.toBe('');
      expect(rule.description.trim(), rule.id).not.toBe('');
      expect(rule.fieldPaths.length, rule.id).toBeGreaterThan(0);
      for (const path of rule.fieldPaths) expect(path, rule.id).toMatch(/^(release(\.|$)|tracks(\[\]|$))/);
    }
  });

  it('covers every topic and names the spec policy topics in the headings', () => {
    for (const topic of Object.keys(TOPIC_TITLES) as RuleTopic[]) {
      expect(
        RULES.some((rule) => rule.topic === topic),
        topic,
      ).toBe(true);
    }
    const headings = Object.values(TOPIC_TITLES).join('\n').toLowerCase();
    for (const policy of [
      'artist-name policy',
      'title casing',
      'writers',
      'upc',
      'ai disclosure',
      'cover songs',
    ]) {
      expect(headings).toContain(policy);
    }
  });

  it('contains the rules the spec and METADATA-RULES.md give as examples', () => {
    const expected = [
      'title-version.remix',
      'track-type.no-remix',
      'title-version.no-bare-cover',
      'link.artist-profile-only',
      'script-code.language-match',
      'stores.non-empty-selection',
      'title.feat-format',
      'artist.generic-name',
      'isrc.format',
      'upc.check-digit',
      'writers.full-legal-name',
      'writers.share-total',
      'locals.one-per-language',
      'release-date.lead-time',
    ];
    for (const id of expected) expect(ruleById(id), id).toBeDefined();
  });

  it('uses the severities METADATA-RULES.md gives', () => {
    const errors = [
      'link.artist-profile-only',
      'script-code.language-match',
      'stores.non-empty-selection',
      'artist.generic-name',
      'track-type.no-remix',
      'title-version.no-bare-cover',
      'required.explicit-flag',
    ];
    const warnings = [
      'title.not-all-caps',
      'title.not-all-lowercase',
      'artist.one-per-field',
      'release-date.lead-time',
      'audio.lossless',
      'cover-art.upscaled',
      'ai.detector-mismatch',
      'cover.registry-match-ownership',
      'script-code.unconfirmed-dropped',
    ];
    for (const id of errors) expect(ruleById(id)?.severity, id).toBe('error');
    for (const id of warnings) expect(ruleById(id)?.severity, id).toBe('warning');
  });

  it('has a required.* rule for every required field of the release schema', () => {
    const { required } = releaseSchema();
    const requiredPaths = [
      ...required.release.map((field) => `release.${field}`),
      ...required.track.map((field) => `tracks[].${field}`),
      ...required.writer.map((field) => `tracks[].writers[].${field}`),
      ...required.primaryArtist.map((field) => `release.primary_artists[].${field}`),
    ];
    const covered = new Set(RULES.filter((r) => r.id.startsWith('required.')).flatMap((r) => r.fieldPaths));
    for (const path of requiredPaths) expect(covered, path).toContain(path);
  });

  it('only names fields the release schema knows', () => {
    const schema = releaseSchema();
    const known = new Set([
      'release',
      'tracks',
      'upc',
      ...schema.required.release,
      ...schema.required.track,
      ...schema.optional.release,
      ...schema.optional.track,
      ...Object.keys(schema.aliases),
      ...['share_percent', 'society', 'ipi', 'name', 'role'],
      ...['dspthree_artist_url', 'dspfour_artist_url', 'language', 'languageId', 'phoneticName'],
    ]);
    for (const rule of RULES) {
      for (const path of rule.fieldPaths) {
        for (const segment of path.split('.'))
          expect(known, `${rule.id}: ${path}`).toContain(segment.replace('[]', ''));
      }
    }
  });
});

describe('rendered rules', () => {
  const markdown = renderMetadataRulesMarkdown();

  it('starts with the title and mentions every rule id and topic heading', () => {
    expect(markdown.startsWith('# Metadata rules\n')).toBe(true);
    for (const rule of RULES) expect(markdown).toContain(`\`${rule.id}\``);
    for (const title of Object.values(TOPIC_TITLES)) expect(markdown).toContain(`## ${title}\n`);
    expect(markdown).toContain('submissionWarnings');
  });

  it('places each rule under its own topic heading', () => {
    for (const rule of RULES) {
      const at = markdown.indexOf(`\`${rule.id}\``);
      const heading = markdown.lastIndexOf('\n## ', at);
      expect(markdown.slice(heading + 4, markdown.indexOf('\n', heading + 1))).toBe(TOPIC_TITLES[rule.topic]);
    }
  });

  it('names a stable content version in the markdown', () => {
    const version = metadataRulesVersion();
    expect(version).toMatch(/^[0-9a-f]{12}$/);
    expect(metadataRulesVersion()).toBe(version);
    expect(markdown).toContain(`Rules version \`${version}\``);
  });

  it('lists every error and the chosen warnings in the hitlist', () => {
    const hitlist = renderHitlistMarkdown();
    expect(hitlist.startsWith('# Metadata rules hitlist\n')).toBe(true);
    for (const rule of RULES.filter((r) => r.severity === 'error')) {
      expect(hitlist).toContain(`- \`${rule.id}\`: ${rule.title}\n`);
    }
    for (const id of HITLIST_WARNING_IDS) {
      expect(ruleById(id)?.severity, id).toBe('warning');
      expect(hitlist).toContain(`\`${id}\``);
    }
    const warningCount = RULES.filter((r) => r.severity === 'warning').length;
    expect(HITLIST_WARNING_IDS.length).toBeLessThan(warningCount);
  });
});

describe('release schema example', () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const schema = releaseSchema(now);
  const { release, tracks } = schema.example;

  it('sends every required field', () => {
    const releaseRecord: Record<string, unknown> = release;
    for (const field of schema.required.release) expect(releaseRecord[field], field).toBeTruthy();
    expect(tracks.length).toBeGreaterThanOrEqual(1);
    for (const track of tracks) {
      const trackRecord: Record<string, unknown> = track;
      for (const field of schema.required.track) expect(trackRecord[field], field).toBeDefined();
      expect(typeof track.explicit_flag).toBe('boolean');
      for (const writer of track.writers) expect(writer.name).toBeTruthy();
    }
    for (const artist of release.primary_artists) expect(artist.name).toBeTruthy();
  });

  it('credits writers with full names and shares adding up to 100', () => {
    for (const track of tracks) {
      expect(track.writers.length).toBeGreaterThan(0);
      expect(track.writers.reduce((sum, w) => sum + w.share_percent, 0)).toBe(100);
      for (const writer of track.writers)
        expect(writer.name.trim().split(/\s+/).length).toBeGreaterThanOrEqual(2);
    }
  });

  it('selects stores that exist and follows the store and file rules', () => {
    expect(release.distribution_store_ids.length).toBeGreaterThan(0);
    for (const id of release.distribution_store_ids) expect(findStore(id), String(id)).toBeDefined();
    expect(release.cover_art_file_url).toMatch(/^\/api\/files\/cover-art\/<user_id>\/[\w.-]+\.png$/);
    for (const track of tracks) expect(track.audio_file_url).toMatch(/^\/api\/files\/audio\/<user_id>\//);
    expect(schema.example.token_offset).toBe(false);
  });

  it('follows the title, artist, type, date and language rules', () => {
    const small = new Set([
      'a',
      'an',
      'the',
      'and',
      'but',
      'or',
      'nor',
      'for',
      'of',
      'in',
      'on',
      'at',
      'to',
      'over',
    ]);
    for (const title of [release.title, ...tracks.map((t) => t.title)]) {
      const words = title.replace(/ \(feat\. [^)]+\)$/, '').split(' ');
      words.forEach((word, i) => {
        const edge = i === 0 || i === words.length - 1;
        if (!edge && small.has(word.toLowerCase())) expect(word, title).toBe(word.toLowerCase());
        else expect(word[0], title).toBe(word[0]?.toUpperCase());
      });
      expect(title).not.toMatch(/\b(ft\.|feat(?!\.)|featuring|w\/)/i);
    }
    expect(tracks.some((t) => t.title.includes('(feat. '))).toBe(true);
    expect(release.primary_artist_name).toBe(release.primary_artists[0]?.name);
    for (const track of tracks) expect(['original', 'cover', 'public_domain']).toContain(track.track_type);
    expect(release.release_date).toBe('2026-03-29');
    expect(findLanguageScriptCode(release.language_and_script_code)?.language).toBe(
      release.metadata_language,
    );
    expect(release.pline_year).toBe('2026');
    expect(release.contributors.map((c) => c.role)).toContain('Producer');
  });

  it('maps the documented aliases to canonical fields', () => {
    expect(schema.aliases).toMatchObject({
      second_genre: 'sub_genre',
      languageAndScriptCode: 'language_and_script_code',
      titleLocals: 'title_locals',
      audioFileUrl: 'audio_file_url',
      audio_file: 'audio_file_url',
      audio_url: 'audio_file_url',
      containsAi: 'contains_ai',
    });
    expect(Object.keys(schema.aliases)).toEqual(expect.arrayContaining(['releasesLocals', 'tracksLocals']));
  });
});
