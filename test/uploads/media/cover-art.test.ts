import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { normaliseCoverArt } from '../../../src/domains/uploads/media/index.ts';
import { AppError } from '../../../src/platform/errors.ts';
import { noise, useTempDir, writeBytes } from './fixtures.ts';

type Rgb = readonly [number, number, number];
const RED: Rgb = [220, 20, 20];
const BLUE: Rgb = [20, 20, 220];
const GREEN: Rgb = [20, 200, 20];
const YELLOW: Rgb = [230, 220, 20];
const WHITE: Rgb = [255, 255, 255];

const colour = ([r, g, b]: Rgb) => ({ r, g, b });
const block = (width: number, height: number, rgb: Rgb) =>
  sharp({ create: { width, height, channels: 3, background: colour(rgb) } })
    .png()
    .toBuffer();

async function pixel(file: string, left: number, top: number): Promise<Rgb> {
  const data = await sharp(file).extract({ left, top, width: 1, height: 1 }).removeAlpha().raw().toBuffer();
  return [data[0]!, data[1]!, data[2]!];
}

/** Within JPEG's error of the expected colour. */
function expectColour(actual: Rgb, expected: Rgb) {
  for (const [i, value] of actual.entries()) expect(Math.abs(value - expected[i]!)).toBeLessThanOrEqual(24);
}

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('normaliseCoverArt', () => {
  const tmp = useTempDir();

  beforeAll(async () => {
    // 4000x3000: red | yellow | green | blue bands of 500, 1500, 1500 and 500 pixels. A centre crop keeps
    // exactly the yellow and green halves.
    await sharp({ create: { width: 4000, height: 3000, channels: 3, background: colour(YELLOW) } })
      .composite([
        { input: await block(500, 3000, RED), left: 0, top: 0 },
        { input: await block(1500, 3000, GREEN), left: 2000, top: 0 },
        { input: await block(500, 3000, BLUE), left: 3500, top: 0 },
      ])
      .jpeg({ quality: 95 })
      .toFile(tmp.file('landscape.jpg'));
    await sharp({ create: { width: 1000, height: 1000, channels: 3, background: colour(GREEN) } })
      .png()
      .toFile(tmp.file('small.png'));
    await sharp({ create: { width: 3000, height: 3000, channels: 3, background: colour(BLUE) } })
      .webp()
      .toFile(tmp.file('exact.webp'));
    // Stored 400x200 (left red, right blue) with EXIF orientation 6: displayed 200x400, red above blue.
    await sharp({ create: { width: 400, height: 200, channels: 3, background: colour(RED) } })
      .composite([{ input: await block(200, 200, BLUE), left: 200, top: 0 }])
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 6 })
      .toFile(tmp.file('rotated.jpg'));
    await sharp({
      create: { width: 300, height: 300, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .png()
      .toFile(tmp.file('transparent.png'));
    await sharp(Buffer.alloc(3000 * 3000, 128), { raw: { width: 3000, height: 3000, channels: 1 } })
      .png()
      .toFile(tmp.file('grey.png'));
    const png = await block(200, 200, RED);
    await writeBytes(tmp.file('truncated.png'), png.subarray(0, Math.floor(png.length / 2)));
    await writeBytes(tmp.file('noise.jpg'), noise(8192));
  });

  it('centre-crops a 4000x3000 JPEG to a 3000x3000 PNG, keeping the centre', async () => {
    const out = tmp.file('landscape-out.png');
    const result = await normaliseCoverArt(tmp.file('landscape.jpg'), out);
    expect(result).toEqual({
      width: 3000,
      height: 3000,
      sourceWidth: 4000,
      sourceHeight: 3000,
      format: 'png',
      warnings: [{ code: 'cover_art_cropped', message: expect.stringContaining('4000x3000') }],
    });
    const metadata = await sharp(out).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 3000, 3000]);
    expect(metadata.space).toBe('srgb');
    expectColour(await pixel(out, 5, 1500), YELLOW); // the red band is cut away
    expectColour(await pixel(out, 1400, 10), YELLOW);
    expectColour(await pixel(out, 1600, 2990), GREEN);
    expectColour(await pixel(out, 2994, 1500), GREEN); // and so is the blue one
  });

  it('upscales a 1000x1000 PNG with a warning (and no crop warning)', async () => {
    const out = tmp.file('small-out.png');
    const result = await normaliseCoverArt(tmp.file('small.png'), out);
    expect(result.warnings.map((w) => w.code)).toEqual(['cover_art_upscaled']);
    expect(result.warnings[0]?.message).toContain('1000x1000');
    expect([result.sourceWidth, result.sourceHeight]).toEqual([1000, 1000]);
    const metadata = await sharp(out).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 3000, 3000]);
    expectColour(await pixel(out, 1500, 1500), GREEN);
  });

  it('takes a square 3000x3000 WebP as it is, without warnings', async () => {
    const out = tmp.file('exact-out.png');
    const result = await normaliseCoverArt(tmp.file('exact.webp'), out);
    expect(result.warnings).toEqual([]);
    expect((await sharp(out).metadata()).format).toBe('png');
    expectColour(await pixel(out, 0, 0), BLUE);
  });

  it('applies the EXIF orientation before cropping', async () => {
    const out = tmp.file('rotated-out.png');
    const result = await normaliseCoverArt(tmp.file('rotated.jpg'), out);
    expect([result.sourceWidth, result.sourceHeight]).toEqual([200, 400]);
    expect(result.warnings.map((w) => w.code)).toEqual(['cover_art_upscaled', 'cover_art_cropped']);
    const metadata = await sharp(out).metadata();
    expect([metadata.width, metadata.height, metadata.orientation]).toEqual([3000, 3000, undefined]);
    // Unrotated, the left half would be red and the right half blue.
    expectColour(await pixel(out, 2500, 10), RED);
    expectColour(await pixel(out, 500, 2990), BLUE);
  });

  it('flattens transparency onto white and always writes 3-channel sRGB', async () => {
    const transparent = tmp.file('transparent-out.png');
    const result = await normaliseCoverArt(tmp.file('transparent.png'), transparent);
    expect(result.warnings.map((w) => w.code)).toEqual([
      'cover_art_upscaled',
      'cover_art_transparency_removed',
    ]);
    const metadata = await sharp(transparent).metadata();
    expect([metadata.channels, metadata.hasAlpha]).toEqual([3, false]);
    expect(await pixel(transparent, 1500, 1500)).toEqual(WHITE);

    const grey = tmp.file('grey-out.png');
    expect((await normaliseCoverArt(tmp.file('grey.png'), grey)).warnings).toEqual([]);
    expect((await sharp(grey).metadata()).channels).toBe(3);
  });

  it.each([
    ['noise.jpg', 'random bytes'],
    ['truncated.png', 'a truncated PNG'],
  ])('rejects %s (%s) with a 422 undecodable_image and leaves no output', async (name) => {
    const out = tmp.file(`${name}-out.png`);
    const error = await rejection(normaliseCoverArt(tmp.file(name), out, { fieldPath: 'release.coverArt' }));
    expect([error.type, error.code]).toEqual(['validation_error', 'undecodable_image']);
    expect(error.message).toBe('The cover art could not be decoded as an image.');
    expect(error.details).toEqual([{ path: 'release.coverArt', message: error.message }]);
    expect(existsSync(out)).toBe(false);
  });

  it('rejects a source above the pixel limit with a 422 image_too_large', async () => {
    const out = tmp.file('limited-out.png');
    const error = await rejection(normaliseCoverArt(tmp.file('small.png'), out, { maxInputPixels: 999_999 }));
    expect([error.type, error.code]).toEqual(['validation_error', 'image_too_large']);
    expect(error.details?.[0]?.path).toBe('coverArt');
    expect(existsSync(out)).toBe(false);
  });

  it('keeps a missing input a server error, not a 422', async () => {
    const error = await normaliseCoverArt(tmp.file('missing.png'), tmp.file('missing-out.png')).catch(
      (e) => e,
    );
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(AppError);
  });
});
