import { createHash } from 'node:crypto';

export type Random = () => number;

/** The prompt as the renderer reads it: surrounding and repeated whitespace do not change the image. */
export function canonicalPrompt(prompt: string): string {
  return prompt.trim().replace(/\s+/g, ' ');
}

/** The prompt's words, lower-cased, letters and digits only. */
export function promptWords(prompt: string): string[] {
  return canonicalPrompt(prompt)
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * A deterministic generator (sfc32) seeded by SHA-256 of `parts`: the same prompt (and base) always draws
 * the same picture, and any change to the prompt draws another.
 */
export function seededRandom(...parts: (string | Buffer)[]): Random {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\u0000');
  const digest = hash.digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  const next = () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return next;
}

export const between = (random: Random, min: number, max: number) => min + random() * (max - min);
export const pick = <T>(random: Random, items: readonly T[]): T =>
  items[Math.floor(random() * items.length)] as T;
