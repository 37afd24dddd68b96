import { describe, expect, it } from 'vitest';
import {
  findLanguageScriptCode,
  ISO_639_1,
  LANGUAGE_SCRIPT_CODES,
} from '../../src/domains/catalog/language-script-codes.ts';

describe('language-script codes', () => {
  it('has unique codes built from their language and script', () => {
    const codes = LANGUAGE_SCRIPT_CODES.map((entry) => entry.code.toLowerCase());
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of LANGUAGE_SCRIPT_CODES) {
      expect(entry.code).toBe(`${entry.language}-${entry.script}`);
      expect(entry.script).toMatch(/^[A-Z][a-z]{3}$/);
      expect(ISO_639_1.has(entry.language)).toBe(true);
      expect(entry.languageName.length).toBeGreaterThan(0);
      expect(entry.scriptName.length).toBeGreaterThan(0);
    }
    expect(LANGUAGE_SCRIPT_CODES.length).toBeGreaterThanOrEqual(30);
  });

  it('includes the codes agents need for Japanese, Korean and Chinese', () => {
    const codes = new Set(LANGUAGE_SCRIPT_CODES.map((entry) => entry.code));
    for (const code of [
      'ja-Jpan',
      'ja-Hira',
      'ja-Kana',
      'ja-Latn',
      'ko-Kore',
      'ko-Hang',
      'zh-Hans',
      'zh-Hant',
    ]) {
      expect(codes).toContain(code);
    }
  });

  it('finds a code case-insensitively', () => {
    expect(findLanguageScriptCode('ja-Jpan')?.language).toBe('ja');
    expect(findLanguageScriptCode('KO-KORE')?.code).toBe('ko-Kore');
    expect(findLanguageScriptCode('zh-hant')?.code).toBe('zh-Hant');
    expect(findLanguageScriptCode(' ru-cyrl ')?.code).toBe('ru-Cyrl');
  });

  it('finds nothing for codes outside the catalog', () => {
    expect(findLanguageScriptCode('ja-Cyrl')).toBeUndefined();
    expect(findLanguageScriptCode('xx-Latn')).toBeUndefined();
    expect(findLanguageScriptCode('ja')).toBeUndefined();
  });
});

describe('ISO 639-1', () => {
  it('holds all 183 two-letter codes', () => {
    expect(ISO_639_1.size).toBe(183);
    for (const code of ISO_639_1) expect(code).toMatch(/^[a-z]{2}$/);
    for (const code of ['en', 'ja', 'ko', 'zh', 'yo', 'zu', 'aa']) expect(ISO_639_1.has(code)).toBe(true);
    expect(ISO_639_1.has('sh')).toBe(false);
    expect(ISO_639_1.has('eng')).toBe(false);
  });
});
