import type { Palette } from './palette.ts';
import { between, pick, type Random } from './seed.ts';

/** Large, flat shapes only: smooth areas compress well (a per-pixel noise texture makes a 20 MB PNG). */
export const COMPOSITIONS = ['orbits', 'horizon', 'shards', 'ribbons'] as const;
export type Composition = (typeof COMPOSITIONS)[number];

const KEYWORDS: Record<Composition, string[]> = {
  orbits: [
    'sun',
    'moon',
    'planet',
    'orbit',
    'circle',
    'circles',
    'space',
    'cosmic',
    'star',
    'eclipse',
    'bubble',
  ],
  horizon: [
    'sea',
    'ocean',
    'wave',
    'waves',
    'mountain',
    'mountains',
    'landscape',
    'horizon',
    'desert',
    'beach',
    'hills',
  ],
  shards: [
    'geometric',
    'glass',
    'crystal',
    'shatter',
    'angular',
    'city',
    'triangle',
    'prism',
    'techno',
    'grid',
  ],
  ribbons: [
    'flow',
    'smoke',
    'dream',
    'silk',
    'ribbon',
    'river',
    'wind',
    'fluid',
    'ambient',
    'swirl',
    'lines',
  ],
};

/** The composition a prompt's words ask for, or one its seed picks. */
export function compositionFor(words: string[], random: Random): Composition {
  for (const word of words) {
    for (const composition of COMPOSITIONS) if (KEYWORDS[composition].includes(word)) return composition;
  }
  return pick(random, COMPOSITIONS);
}

const SIZE = 1024;
const n = (value: number) => value.toFixed(2);

function orbits(palette: Palette, random: Random): string {
  const shapes: string[] = [];
  const cx = between(random, 300, 724);
  const cy = between(random, 300, 724);
  for (let i = 0; i < 7; i++) {
    shapes.push(
      `<circle cx="${n(cx + between(random, -40, 40))}" cy="${n(cy + between(random, -40, 40))}" r="${n(460 - i * 60)}" ` +
        `fill="none" stroke="${pick(random, palette.accents)}" stroke-width="${n(between(random, 4, 26))}" opacity="${n(between(random, 0.35, 0.9))}"/>`,
    );
  }
  shapes.push(
    `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(between(random, 110, 190))}" fill="${palette.accents[0]}" filter="url(#glow)"/>`,
  );
  for (let i = 0; i < 9; i++) {
    shapes.push(
      `<circle cx="${n(between(random, 0, SIZE))}" cy="${n(between(random, 0, SIZE))}" r="${n(between(random, 8, 70))}" ` +
        `fill="${pick(random, palette.accents)}" opacity="${n(between(random, 0.4, 0.95))}"/>`,
    );
  }
  return shapes.join('');
}

function horizon(palette: Palette, random: Random): string {
  const shapes = [
    `<circle cx="${n(between(random, 200, 824))}" cy="${n(between(random, 260, 480))}" r="${n(between(random, 90, 170))}" fill="${palette.accents[0]}" filter="url(#glow)"/>`,
  ];
  for (let layer = 0; layer < 5; layer++) {
    const base = 520 + layer * 100;
    let d = `M0 ${n(base)}`;
    for (let x = 0; x <= SIZE; x += 128) {
      d += ` Q${n(x + 64)} ${n(base + between(random, -90, 90))} ${n(x + 128)} ${n(base + between(random, -30, 30))}`;
    }
    d += ` L${SIZE} ${SIZE} L0 ${SIZE} Z`;
    shapes.push(
      `<path d="${d}" fill="${palette.accents[(layer + 1) % palette.accents.length]}" opacity="${n(0.55 + layer * 0.09)}"/>`,
    );
  }
  return shapes.join('');
}

function shards(palette: Palette, random: Random): string {
  const shapes: string[] = [];
  for (let i = 0; i < 26; i++) {
    const x = between(random, -100, SIZE + 100);
    const y = between(random, -100, SIZE + 100);
    const r = between(random, 60, 320);
    const corners = 3 + Math.floor(random() * 3);
    const points = Array.from({ length: corners }, (_, k) => {
      const angle = (k / corners) * Math.PI * 2 + between(random, -0.4, 0.4);
      return `${n(x + Math.cos(angle) * r)},${n(y + Math.sin(angle) * r)}`;
    });
    shapes.push(
      `<polygon points="${points.join(' ')}" fill="${pick(random, palette.accents)}" opacity="${n(between(random, 0.3, 0.85))}"/>`,
    );
  }
  return shapes.join('');
}

function ribbons(palette: Palette, random: Random): string {
  const shapes: string[] = [];
  for (let i = 0; i < 14; i++) {
    const y0 = between(random, 0, SIZE);
    const d =
      `M-50 ${n(y0)} C${n(between(random, 150, 450))} ${n(between(random, -200, 1224))} ` +
      `${n(between(random, 550, 850))} ${n(between(random, -200, 1224))} 1074 ${n(between(random, 0, SIZE))}`;
    shapes.push(
      `<path d="${d}" fill="none" stroke="${pick(random, palette.accents)}" stroke-linecap="round" ` +
        `stroke-width="${n(between(random, 10, 90))}" opacity="${n(between(random, 0.3, 0.85))}"/>`,
    );
  }
  return shapes.join('');
}

const DRAW: Record<Composition, (palette: Palette, random: Random) => string> = {
  orbits,
  horizon,
  shards,
  ribbons,
};

/** A 1024×1024 SVG: the palette's gradient (unless `transparent`) under the composition's shapes. */
export function compositionSvg(
  composition: Composition,
  palette: Palette,
  random: Random,
  options: { transparent?: boolean; opacity?: number } = {},
): string {
  const [from, middle, to] = palette.background;
  const angle = between(random, 0, 360);
  const background = options.transparent ? '' : `<rect width="${SIZE}" height="${SIZE}" fill="url(#bg)"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">` +
    `<defs><linearGradient id="bg" gradientTransform="rotate(${n(angle)} 0.5 0.5)">` +
    `<stop offset="0" stop-color="${from}"/><stop offset="0.55" stop-color="${middle}"/><stop offset="1" stop-color="${to}"/>` +
    `</linearGradient><filter id="glow" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur stdDeviation="24"/></filter></defs>` +
    background +
    `<g opacity="${n(options.opacity ?? 1)}">` +
    DRAW[composition](palette, random) +
    '</g></svg>'
  );
}
