/** Language, script-code and locals logic shared by the rules and by prepareForSubmission. */
import { findLanguageScriptCode, ISO_639_1, LANGUAGE_SCRIPT_CODES } from '../../../catalog/index.ts';
import { type Obj, text } from './issues.ts';

/** An ISO 639-1 code exactly as the spec writes it (lowercase), else undefined. */
export function isoLanguage(value: unknown): string | undefined {
  const code = text(value);
  return code !== undefined && ISO_639_1.has(code) ? code : undefined;
}

/** Common ways of writing a language that are not ISO 639-1, mapped to the code. */
const LANGUAGE_REPAIRS: Readonly<Record<string, string>> = {
  eng: 'en',
  spa: 'es',
  fra: 'fr',
  fre: 'fr',
  deu: 'de',
  ger: 'de',
  ita: 'it',
  por: 'pt',
  jpn: 'ja',
  kor: 'ko',
  zho: 'zh',
  chi: 'zh',
  rus: 'ru',
  ara: 'ar',
  hin: 'hi',
  tur: 'tr',
  nld: 'nl',
  dut: 'nl',
  swe: 'sv',
  pol: 'pl',
  english: 'en',
  spanish: 'es',
  french: 'fr',
  german: 'de',
  italian: 'it',
  portuguese: 'pt',
  japanese: 'ja',
  korean: 'ko',
  chinese: 'zh',
  russian: 'ru',
};

/** The ISO 639-1 code a non-conforming language value most likely means, if any. */
export function languageRepair(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  if (ISO_639_1.has(lower)) return lower;
  const region = /^([a-z]{2})[-_][a-z]{2,4}$/.exec(lower);
  if (region?.[1] && ISO_639_1.has(region[1])) return region[1];
  return LANGUAGE_REPAIRS[lower];
}

export type ScriptCodeStatus =
  | { status: 'confirmed'; code: string }
  | { status: 'mismatch'; codeLanguage: string; fieldLanguage: string; suggestion?: string }
  | { status: 'unconfirmed'; reason: string };

/**
 * A script code against the language of the field it sits on: confirmed (canonical spelling), a mismatch
 * (422), or unconfirmed (an unknown code, or no ISO 639-1 language to compare it with; dropped at submission).
 */
export function judgeScriptCode(
  value: unknown,
  fieldLanguage: unknown,
  languageField: string,
): ScriptCodeStatus {
  if (typeof value !== 'string') {
    return { status: 'unconfirmed', reason: 'it is not a string' };
  }
  const entry = findLanguageScriptCode(value);
  if (!entry) {
    return { status: 'unconfirmed', reason: 'it is not a code from GET /language-script-codes' };
  }
  const language = isoLanguage(
    typeof fieldLanguage === 'string' ? fieldLanguage.toLowerCase() : fieldLanguage,
  );
  if (language === undefined) {
    return {
      status: 'unconfirmed',
      reason: `there is no ISO 639-1 ${languageField} to confirm it against`,
    };
  }
  if (entry.language !== language) {
    const candidates = LANGUAGE_SCRIPT_CODES.filter((code) => code.language === language);
    const sameScript = candidates.find((code) => code.script === entry.script);
    return {
      status: 'mismatch',
      codeLanguage: entry.language,
      fieldLanguage: language,
      suggestion: (sameScript ?? candidates[0])?.code,
    };
  }
  return { status: 'confirmed', code: entry.code };
}

/** The language a locals entry is for (`language` preferred, else `languageId`); undefined when neither. */
export function localsKey(entry: Obj): string | undefined {
  const language = text(entry.language);
  if (language !== undefined) return `language:${language.toLowerCase()}`;
  if (typeof entry.languageId === 'number' && Number.isFinite(entry.languageId))
    return `id:${entry.languageId}`;
  return undefined;
}

/** Keys of a title_locals entry that carry a version, which is never delivered. */
export const LOCALS_VERSION_KEYS = ['title_version', 'titleVersion', 'version'] as const;
