export interface LanguageScriptCode {
  /** `<ISO 639-1 language>-<ISO 15924 script>`, e.g. `ja-Jpan`. */
  code: string;
  language: string;
  languageName: string;
  script: string;
  scriptName: string;
}

const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  ar: 'Arabic',
  bn: 'Bengali',
  de: 'German',
  el: 'Greek',
  en: 'English',
  es: 'Spanish',
  fa: 'Persian',
  fr: 'French',
  he: 'Hebrew',
  hi: 'Hindi',
  hy: 'Armenian',
  id: 'Indonesian',
  it: 'Italian',
  ja: 'Japanese',
  ka: 'Georgian',
  ko: 'Korean',
  pa: 'Punjabi',
  pt: 'Portuguese',
  ru: 'Russian',
  ta: 'Tamil',
  te: 'Telugu',
  th: 'Thai',
  tr: 'Turkish',
  uk: 'Ukrainian',
  ur: 'Urdu',
  vi: 'Vietnamese',
  zh: 'Chinese',
};

const SCRIPT_NAMES: Readonly<Record<string, string>> = {
  Arab: 'Arabic',
  Armn: 'Armenian',
  Beng: 'Bengali (Bangla)',
  Cyrl: 'Cyrillic',
  Deva: 'Devanagari',
  Geor: 'Georgian',
  Grek: 'Greek',
  Guru: 'Gurmukhi',
  Hang: 'Hangul',
  Hans: 'Han (Simplified variant)',
  Hant: 'Han (Traditional variant)',
  Hebr: 'Hebrew',
  Hira: 'Hiragana',
  Jpan: 'Japanese (Han + Hiragana + Katakana)',
  Kana: 'Katakana',
  Kore: 'Korean (Hangul + Han)',
  Latn: 'Latin',
  Taml: 'Tamil',
  Telu: 'Telugu',
  Thai: 'Thai',
};

const PAIRS = [
  'ja-Jpan',
  'ja-Hira',
  'ja-Kana',
  'ja-Latn',
  'ko-Kore',
  'ko-Hang',
  'ko-Latn',
  'zh-Hans',
  'zh-Hant',
  'zh-Latn',
  'ru-Cyrl',
  'ru-Latn',
  'uk-Cyrl',
  'el-Grek',
  'el-Latn',
  'ar-Arab',
  'ar-Latn',
  'fa-Arab',
  'ur-Arab',
  'he-Hebr',
  'hi-Deva',
  'hi-Latn',
  'pa-Guru',
  'bn-Beng',
  'ta-Taml',
  'te-Telu',
  'th-Thai',
  'th-Latn',
  'ka-Geor',
  'hy-Armn',
  'en-Latn',
  'es-Latn',
  'fr-Latn',
  'de-Latn',
  'pt-Latn',
  'it-Latn',
  'tr-Latn',
  'vi-Latn',
  'id-Latn',
] as const;

function describePair(code: string): LanguageScriptCode {
  const [language = '', script = ''] = code.split('-');
  const languageName = LANGUAGE_NAMES[language];
  const scriptName = SCRIPT_NAMES[script];
  if (languageName === undefined || scriptName === undefined) {
    throw new Error(`language-script code ${code} has no name for its language or script`);
  }
  return { code, language, languageName, script, scriptName };
}

export const LANGUAGE_SCRIPT_CODES: readonly LanguageScriptCode[] = PAIRS.map(describePair);

const BY_LOWERCASE_CODE = new Map(LANGUAGE_SCRIPT_CODES.map((entry) => [entry.code.toLowerCase(), entry]));

/** The catalog entry for a code in any case (`JA-JPAN` finds `ja-Jpan`). */
export function findLanguageScriptCode(code: string): LanguageScriptCode | undefined {
  return BY_LOWERCASE_CODE.get(code.trim().toLowerCase());
}

/** Every ISO 639-1 two-letter code (183; the withdrawn `sh` is not one). */
export const ISO_639_1: ReadonlySet<string> = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ' +
    'ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ' +
    'ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi ' +
    'mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw ' +
    'sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ' +
    'ur uz ve vi vo wa wo xh yi yo za zh zu'
  ).split(' '),
);
