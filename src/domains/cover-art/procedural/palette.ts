import { between, type Random } from './seed.ts';

/** Words that name a hue (degrees); a prompt's colour words steer its palette. */
const HUES: Record<string, number> = Object.fromEntries(
  [
    'red:0 crimson:348 scarlet:6 ruby:345 fire:12 flame:14 orange:28 sunset:22 autumn:30 amber:40',
    'gold:46 golden:46 honey:42 yellow:55 lemon:58 sun:48 lime:90 green:120 forest:128 jungle:118',
    'emerald:145 mint:155 teal:175 turquoise:172 cyan:186 ice:192 sea:196 ocean:202 sky:206 blue:222',
    'sapphire:218 navy:228 night:235 midnight:240 indigo:252 violet:272 lavender:268 purple:282',
    'plum:292 magenta:310 neon:305 pink:330 rose:338 cherry:350',
  ]
    .join(' ')
    .split(' ')
    .map((entry) => {
      const [word, hue] = entry.split(':');
      return [word, Number(hue)];
    }),
);

/** Mood words: how light and how saturated the palette is. */
const DARK = new Set(['dark', 'night', 'midnight', 'noir', 'shadow', 'gothic', 'doom', 'deep', 'moody']);
const LIGHT = new Set(['bright', 'light', 'summer', 'dawn', 'airy', 'sunny', 'pastel', 'soft', 'white']);
const MUTED = new Set(['pastel', 'muted', 'faded', 'vintage', 'dusty', 'retro', 'soft', 'calm']);
const VIVID = new Set(['neon', 'vivid', 'electric', 'bold', 'psychedelic', 'rave', 'loud', 'acid']);
const GREY = new Set(['monochrome', 'grayscale', 'greyscale', 'grey', 'gray', 'mono', 'silver']);

export interface Palette {
  background: [string, string, string];
  accents: string[];
  /** The palette's leading hue, for washes over an edited image. */
  hue: number;
  grey: boolean;
}

export interface Mood {
  lightness: number;
  saturation: number;
  grey: boolean;
}

export function moodOf(words: string[]): Mood {
  const has = (set: Set<string>) => words.some((w) => set.has(w));
  const grey = has(GREY) || (words.includes('black') && words.includes('white'));
  return {
    lightness: has(DARK) ? 0.26 : has(LIGHT) ? 0.7 : 0.5,
    saturation: grey ? 0 : has(MUTED) ? 0.38 : has(VIVID) ? 0.95 : 0.7,
    grey,
  };
}

/** Hues the prompt names, in order. */
export function namedHues(words: string[]): number[] {
  return words.flatMap((w) => (w in HUES ? [HUES[w] as number] : []));
}

export function hsl(hue: number, saturation: number, lightness: number): string {
  const h = ((hue % 360) + 360) % 360;
  const s = Math.max(0, Math.min(1, saturation));
  const l = Math.max(0.04, Math.min(0.96, lightness));
  return `hsl(${h.toFixed(1)},${(s * 100).toFixed(1)}%,${(l * 100).toFixed(1)}%)`;
}

/** Colours from the prompt's words (named hues, mood), filled in by harmonies drawn from its seed. */
export function paletteFor(words: string[], random: Random): Palette {
  const mood = moodOf(words);
  const named = namedHues(words);
  const hue = named[0] ?? Math.floor(random() * 360);
  const harmony = [0, 30, 150, 180, 210, 120, 240][Math.floor(random() * 7)] ?? 180;
  const second = named[1] ?? hue + harmony;
  const third = named[2] ?? hue - harmony / 2;
  const { lightness: l, saturation: s } = mood;
  return {
    hue,
    grey: mood.grey,
    background: [
      hsl(hue, s, l * 0.55),
      hsl((hue + second) / 2, s * 0.9, l),
      hsl(second, s, Math.min(0.92, l * 1.35)),
    ],
    accents: [hue, second, third, hue + 15, second - 20].map((h) =>
      hsl(h + between(random, -12, 12), s * between(random, 0.8, 1.1), l * between(random, 0.75, 1.45)),
    ),
  };
}
