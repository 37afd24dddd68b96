import sharp from 'sharp';
import type { GeneratedImage, ImageGenerator, ImageRequest } from './image-generator.ts';
import { compositionFor, compositionSvg } from './procedural/compositions.ts';
import { hsl, moodOf, namedHues, paletteFor } from './procedural/palette.ts';
import { between, canonicalPrompt, promptWords, seededRandom } from './procedural/seed.ts';

export const PROCEDURAL_MODEL = 'procedural-v1';

const DARKER = ['darker', 'dark', 'night', 'dim', 'shadow', 'shadows', 'noir', 'moody'];
const BRIGHTER = ['brighter', 'bright', 'lighter', 'light', 'sunny', 'glow', 'airy'];
const GREYER = ['monochrome', 'grayscale', 'greyscale', 'mono', 'desaturate', 'desaturated'];
const MUTED = ['muted', 'faded', 'vintage', 'pastel', 'soft', 'dusty'];
const VIVID = ['vivid', 'neon', 'saturated', 'bold', 'electric', 'psychedelic'];

/**
 * The offline default: a composition drawn from the prompt (colours from its colour and mood words,
 * shapes from its subject words, the rest from its SHA-256), written as SVG and rendered by sharp.
 * With a base image it edits that image instead: brightness and saturation from the prompt's words, a
 * wash of its colour, and its composition laid over at partial opacity, so an edit always shows.
 * Deterministic: the same prompt (and base) gives the same pixels.
 */
export function createProceduralGenerator(): ImageGenerator {
  return { generate: (request) => renderProcedural(request) };
}

export async function renderProcedural(request: ImageRequest): Promise<GeneratedImage> {
  const prompt = canonicalPrompt(request.prompt);
  const words = promptWords(prompt);
  if (!request.base) {
    const random = seededRandom(PROCEDURAL_MODEL, prompt);
    const palette = paletteFor(words, random);
    const composition = compositionFor(words, random);
    const bytes = await sharp(Buffer.from(compositionSvg(composition, palette, random)))
      .removeAlpha()
      .png()
      .toBuffer();
    return { bytes, mimeType: 'image/png', model: PROCEDURAL_MODEL, modelVariant: composition };
  }
  const random = seededRandom(`${PROCEDURAL_MODEL}:edit`, prompt, request.base);
  const palette = paletteFor(words, random);
  const composition = compositionFor(words, random);
  const has = (list: string[]) => words.some((w) => list.includes(w));
  const wash = namedHues(words)[0] ?? palette.hue;
  const mood = moodOf(words);
  const bytes = await sharp(request.base)
    .modulate({
      brightness: has(DARKER) ? 0.7 : has(BRIGHTER) ? 1.25 : 1,
      saturation: has(GREYER) || mood.grey ? 0 : has(MUTED) ? 0.6 : has(VIVID) ? 1.45 : 1.1,
      hue: Math.round(between(random, -35, 35)),
    })
    .composite([
      { input: Buffer.from(washSvg(hsl(wash, mood.grey ? 0 : 0.85, 0.5))), blend: 'soft-light' },
      {
        input: Buffer.from(compositionSvg(composition, palette, random, { transparent: true, opacity: 0.5 })),
        blend: 'over',
      },
    ])
    .removeAlpha()
    .png()
    .toBuffer();
  return { bytes, mimeType: 'image/png', model: PROCEDURAL_MODEL, modelVariant: `${composition}-edit` };
}

const washSvg = (colour: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="1024" height="1024"><rect width="1024" height="1024" fill="${colour}"/></svg>`;
