/** Value shapes the ERN 4.3 schema restricts, checked before they go into a message. */

export function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null;
}

/** `lang[-script][-region][-variant]`, the pattern of every LanguageAndScriptCode in ERN 4.3. */
const LANGUAGE_AND_SCRIPT =
  /^[a-zA-Z]{2,3}(-[a-zA-Z]+)?(-[a-zA-Z]{2}|-[0-9]{3})?(-[a-zA-Z][a-zA-Z0-9]{4}[a-zA-Z0-9]*)?$/;

export function languageCode(value: unknown): string | null {
  const code = text(value);
  return code && LANGUAGE_AND_SCRIPT.test(code) ? code : null;
}

/** A gYear (PLine/CLine Year): four digits. */
export function year(value: unknown): string | null {
  const candidate = typeof value === 'number' ? String(value) : text(value);
  return candidate && /^\d{4}$/.test(candidate) ? candidate : null;
}

/** A calendar date `YYYY-MM-DD` that exists. */
export function isoDate(value: unknown): string | null {
  const candidate = text(value);
  if (!candidate || !/^\d{4}-\d{2}-\d{2}$/.test(candidate)) return null;
  const parsed = new Date(`${candidate}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(candidate) ? candidate : null;
}

/** ISO 8601 duration, whole seconds: `PT3M20S`. */
export function isoDuration(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `PT${h ? `${h}H` : ''}${m ? `${m}M` : ''}${s || (!h && !m) ? `${s}S` : ''}`;
}

/** An IPI name number as ERN 4.3 takes it: 11 digits (shorter ones are zero-padded, as IPI does). */
export function ipiNameNumber(value: unknown): string | null {
  const digits = typeof value === 'number' ? String(value) : text(value)?.replace(/[\s.-]/g, '');
  return digits && /^\d{9,11}$/.test(digits) ? digits.padStart(11, '0') : null;
}

/** "A", "A & B", "A, B & C": how the display artist of several primary artists reads. */
export function joinNames(names: readonly string[]): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} & ${names.at(-1)}`;
}

/**
 * Free-text contributor roles as the DDEX ContributorRole values they mean (keys: lower-case letters
 * only). A role not listed here is sent as `UserDefined` with the caller's words.
 */
const CONTRIBUTOR_ROLES: Record<string, string> = {
  arranger: 'Arranger',
  backgroundvocalist: 'BackgroundVocalist',
  backingvocals: 'BackgroundVocalist',
  backingvocalist: 'BackgroundVocalist',
  composer: 'Composer',
  composerlyricist: 'ComposerLyricist',
  conductor: 'Conductor',
  coproducer: 'CoProducer',
  dj: 'DJ',
  engineer: 'Engineer',
  executiveproducer: 'ExecutiveProducer',
  lyricist: 'Lyricist',
  masteringengineer: 'MasteringEngineer',
  mixer: 'Mixer',
  mixingengineer: 'MixingEngineer',
  musician: 'Musician',
  orchestra: 'Orchestra',
  performer: 'Performer',
  producer: 'StudioProducer',
  programmer: 'Programmer',
  recordingengineer: 'RecordingEngineer',
  remixer: 'Remixer',
  singer: 'Vocalist',
  songwriter: 'ComposerLyricist',
  studioproducer: 'StudioProducer',
  vocalist: 'Vocalist',
  vocals: 'Vocalist',
  writer: 'ComposerLyricist',
};

export function contributorRole(role: string): { value: string; userDefined: string | null } {
  const known = CONTRIBUTOR_ROLES[role.toLowerCase().replace(/[^a-z]/g, '')];
  return known ? { value: known, userDefined: null } : { value: 'UserDefined', userDefined: role };
}
