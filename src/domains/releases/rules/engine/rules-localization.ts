import { isObj, isOmitted, isSent, type Obj, type Report, show, text, typeName } from './issues.ts';
import {
  isoLanguage,
  judgeScriptCode,
  LOCALS_VERSION_KEYS,
  languageRepair,
  localsKey,
} from './localization.ts';
import { items, type Scope } from './scope.ts';

function checkLanguage(value: unknown, path: string, report: Report): void {
  if (isOmitted(value)) return;
  if (typeof value !== 'string') {
    report('language.iso-639-1', path, `A language is a two-letter ISO 639-1 code, not ${typeName(value)}.`);
    return;
  }
  if (isoLanguage(value) !== undefined && value === value.trim()) return;
  const repaired = languageRepair(value);
  report(
    'language.iso-639-1',
    path,
    `${show(value)} is not a two-letter ISO 639-1 language code (e.g. "en", "ko").`,
    repaired,
  );
}

function checkScriptCode(
  value: unknown,
  path: string,
  fieldLanguage: unknown,
  languageField: string,
  report: Report,
): void {
  if (isOmitted(value)) return;
  const verdict = judgeScriptCode(value, fieldLanguage, languageField);
  if (verdict.status === 'mismatch') {
    report(
      'script-code.language-match',
      path,
      `Script code ${show(value)} is for language "${verdict.codeLanguage}" but ${languageField} is ` +
        `"${verdict.fieldLanguage}".`,
      verdict.suggestion,
    );
  } else if (verdict.status === 'unconfirmed') {
    report(
      'script-code.unconfirmed-dropped',
      path,
      `Script code ${show(value)} cannot be confirmed (${verdict.reason}); it is dropped at submission.`,
    );
  }
}

function checkLocals(value: unknown, path: string, kind: 'title' | 'artist', report: Report): void {
  if (!isSent(value)) return;
  if (!Array.isArray(value)) {
    report(
      'locals.language-required',
      path,
      `${kind}_locals must be an array of entries with a language, not ${typeName(value)}.`,
    );
    return;
  }
  const seen = new Map<string, number>();
  for (const item of items(value, path)) {
    if (!isObj(item.value)) {
      report(
        'locals.language-required',
        item.path,
        `Each ${kind}_locals entry must be an object with a language, not ${typeName(item.value)}.`,
      );
      continue;
    }
    const entry: Obj = item.value;
    const hasLanguage = text(entry.language) !== undefined;
    const hasLanguageId = typeof entry.languageId === 'number' && Number.isFinite(entry.languageId);
    if (isSent(entry.languageId) && !hasLanguageId) {
      report(
        'locals.language-required',
        `${item.path}.languageId`,
        `languageId must be a number, not ${typeName(entry.languageId)}; prefer language (ISO 639-1).`,
      );
    } else if (!hasLanguage && !hasLanguageId) {
      report(
        'locals.language-required',
        `${item.path}.language`,
        `Each ${kind}_locals entry names its language (ISO 639-1, e.g. "ja"), or languageId.`,
      );
    }
    checkLanguage(entry.language, `${item.path}.language`, report);
    checkScriptCode(
      entry.language_and_script_code,
      `${item.path}.language_and_script_code`,
      entry.language,
      'the entry language',
      report,
    );
    const key = localsKey(entry);
    if (key !== undefined) {
      const first = seen.get(key);
      if (first === undefined) seen.set(key, item.index);
      else {
        report(
          'locals.one-per-language',
          item.path,
          `${path}[${first}] is already for this language; this extra entry is ignored.`,
        );
      }
    }
    if (kind === 'title') {
      for (const versionKey of LOCALS_VERSION_KEYS) {
        if (entry[versionKey] === undefined) continue;
        report(
          'locals.no-title-version',
          `${item.path}.${versionKey}`,
          'Localized title versions are not delivered; only the localized title is. It is dropped at submission.',
        );
      }
    }
  }
}

function checkLocalsOf(owner: Obj, base: string, report: Report): void {
  checkLocals(owner.title_locals, `${base}.title_locals`, 'title', report);
  checkLocals(owner.artist_locals, `${base}.artist_locals`, 'artist', report);
}

export function checkLocalization(scope: Scope, report: Report): void {
  const { release } = scope;
  checkLanguage(release.audio_language, 'release.audio_language', report);
  checkLanguage(release.metadata_language, 'release.metadata_language', report);
  checkScriptCode(
    release.language_and_script_code,
    'release.language_and_script_code',
    release.metadata_language,
    'release.metadata_language',
    report,
  );
  checkLocalsOf(release, 'release', report);
  for (const { track, path } of scope.trackViews) {
    checkLanguage(track.language, `${path}.language`, report);
    checkScriptCode(
      track.language_and_script_code,
      `${path}.language_and_script_code`,
      track.language,
      `${path}.language`,
      report,
    );
    checkLocalsOf(track, path, report);
  }
}
