import { ipiNameNumber, languageCode, text } from './ddex-values.ts';
import { type XmlNode, xml, xmlText } from './xml.ts';

/** A name in another language or script (from `title_locals` / `artist_locals`). */
export interface LocalName {
  code: string;
  name: string;
}

/**
 * The usable entries of a locals array: a name and a language code ERN accepts
 * (`language_and_script_code` preferred, else `language`), one per code. Entries that name their
 * language only by a numeric `languageId` cannot be labelled in a message and are left out.
 */
export function localNames(value: unknown): LocalName[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const names: LocalName[] = [];
  for (const entry of value) {
    if (!entry || typeof entry !== 'object') continue;
    const record = entry as Record<string, unknown>;
    const name = text(record.name);
    const code = languageCode(record.language_and_script_code) ?? languageCode(record.language);
    if (!name || !code || seen.has(code.toLowerCase())) continue;
    seen.add(code.toLowerCase());
    names.push({ code, name });
  }
  return names;
}

interface Party {
  reference: string;
  name: string;
  locals: LocalName[];
  ipi: string | null;
}

/**
 * The message's PartyList: one Party per distinct name (an artist who also wrote a song is one party),
 * referenced from DisplayArtist, Contributor and ReleaseLabelReference as `P1`, `P2`, …
 */
export function partyBook() {
  const byName = new Map<string, Party>();
  const referenceOf = (name: string): string => {
    const existing = byName.get(name);
    if (existing) return existing.reference;
    const party: Party = { reference: `P${byName.size + 1}`, name, locals: [], ipi: null };
    byName.set(name, party);
    return party.reference;
  };
  return {
    referenceOf,
    addLocals(name: string, locals: readonly LocalName[]): void {
      referenceOf(name);
      const party = byName.get(name)!;
      for (const local of locals) {
        if (!party.locals.some((known) => known.code.toLowerCase() === local.code.toLowerCase()))
          party.locals.push(local);
      }
    },
    addIpi(name: string, ipi: unknown): void {
      referenceOf(name);
      const party = byName.get(name)!;
      party.ipi ??= ipiNameNumber(ipi);
    },
    node(): XmlNode {
      return xml('PartyList', null, ...[...byName.values()].map(partyNode));
    },
  };
}

function partyNode(party: Party): XmlNode {
  return xml(
    'Party',
    null,
    xml('PartyReference', null, party.reference),
    xml('PartyName', null, xml('FullName', null, party.name)),
    ...party.locals.map((local) =>
      xml('PartyName', { LanguageAndScriptCode: local.code }, xml('FullName', null, local.name)),
    ),
    party.ipi ? xml('PartyId', null, xmlText('IpiNameNumber', party.ipi)) : null,
  );
}

export type PartyBook = ReturnType<typeof partyBook>;
