import { createHash } from 'node:crypto';
import { gs1CheckDigit } from './rules/engine/identifiers.ts';

const ISRC_COUNTRY = 'XX';
const ISRC_REGISTRANT = 'TRB';

function hashNumber(seed: string, label: string, modulus: bigint): bigint {
  const digest = createHash('sha256').update(label).update('\0').update(seed).digest('hex');
  return BigInt(`0x${digest}`) % modulus;
}

/** A 12-digit UPC-A derived from the seed (the release id): a retry assigns the same code. */
export function assignUpc(seed: string): string {
  const body = hashNumber(seed, 'upc', 10n ** 11n)
    .toString()
    .padStart(11, '0');
  return `${body}${gs1CheckDigit(body)}`;
}

/**
 * ISRCs `XX-TRB-YY-NNNNN` (without hyphens) for the tracks of the seed's release, by index (0-based):
 * tracks of one release get consecutive designation codes; `year` should be stable for the release
 * (its submission year) so a retry assigns the same codes. The seed is hashed once for all tracks.
 */
export function isrcAssigner(
  seed: string,
  year: number = new Date().getUTCFullYear(),
): (index: number) => string {
  const base = hashNumber(seed, 'isrc', 100_000n);
  const yy = String(year % 100).padStart(2, '0');
  return (index) => {
    const designation = ((base + BigInt(index)) % 100_000n).toString().padStart(5, '0');
    return `${ISRC_COUNTRY}${ISRC_REGISTRANT}${yy}${designation}`;
  };
}

/** The ISRC `isrcAssigner` gives the track at `index` of the seed's release. */
export function assignIsrc(seed: string, index: number, year: number = new Date().getUTCFullYear()): string {
  return isrcAssigner(seed, year)(index);
}
