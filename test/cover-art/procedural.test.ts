import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderProcedural } from '../../src/domains/cover-art/procedural-generator.ts';

async function pixels(bytes: Buffer) {
  const { data, info } = await sharp(bytes).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Mean absolute difference per channel, 0..255. */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs((a[i] ?? 0) - (b[i] ?? 0));
  return sum / a.length;
}

describe('the procedural generator (procedural-v1)', () => {
  it('draws a 1024×1024 PNG that depends on the prompt and only on it', async () => {
    const first = await renderProcedural({ prompt: 'a calm ocean at sunset', base: null });
    const again = await renderProcedural({ prompt: '  a calm   ocean at sunset ', base: null });
    const other = await renderProcedural({ prompt: 'neon city at midnight', base: null });
    expect(first).toMatchObject({ mimeType: 'image/png', model: 'procedural-v1', modelVariant: 'horizon' });
    const [a, b, c] = await Promise.all([pixels(first.bytes), pixels(again.bytes), pixels(other.bytes)]);
    expect([a.width, a.height]).toEqual([1024, 1024]);
    expect(a.data.equals(b.data)).toBe(true);
    expect(meanDifference(a.data, c.data)).toBeGreaterThan(20);
  });

  it('reads colour words: a red prompt is redder than a blue one', async () => {
    const mean = async (prompt: string) => {
      const { channels } = await sharp((await renderProcedural({ prompt, base: null })).bytes).stats();
      return channels.map((channel) => channel.mean);
    };
    const [red, , blueOfRed] = await mean('red fire circles');
    const [redOfBlue, , blue] = await mean('blue ocean circles');
    expect(red! - blueOfRed!).toBeGreaterThan(redOfBlue! - blue!);
  });

  it('edits a base visibly and deterministically, and the prompt decides the edit', async () => {
    const base = (await renderProcedural({ prompt: 'golden sun over purple hills', base: null })).bytes;
    const edited = await renderProcedural({ prompt: 'make it darker with red', base });
    const twice = await renderProcedural({ prompt: 'make it darker with red', base });
    const otherEdit = await renderProcedural({ prompt: 'add teal ribbons', base });
    expect(edited.modelVariant).toMatch(/-edit$/);
    const [b, e, t, o] = await Promise.all([base, edited.bytes, twice.bytes, otherEdit.bytes].map(pixels));
    expect(e!.data.equals(t!.data)).toBe(true);
    expect(meanDifference(b!.data, e!.data)).toBeGreaterThan(15);
    expect(meanDifference(e!.data, o!.data)).toBeGreaterThan(15);
    const brightness = async (bytes: Buffer) => (await sharp(bytes).greyscale().stats()).channels[0]!.mean;
    expect(await brightness(edited.bytes)).toBeLessThan(await brightness(base));
  });
});
