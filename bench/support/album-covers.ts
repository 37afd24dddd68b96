/**
 * Cover art that weighs what real covers do once made small: shapes on a gradient with a photographic
 * grain, a title, different for each seed (a list of one repeated cover would cost one image). Its
 * 64 px WebP thumbnail is 1 to 1.4 KB, its 320 px one 11 to 13 KB (a single colour: 0.1 and 0.5 KB).
 */
import sharp from 'sharp';
import { request } from '../../test/support/http.ts';

function artwork(seed: number): string {
  let state = seed * 9301 + 49297;
  const random = () => {
    state = (state * 9301 + 49297) % 233280;
    return state / 233280;
  };
  const shapes = Array.from({ length: 40 }, () => {
    const colour = `hsl(${Math.floor(random() * 360)},${40 + Math.floor(random() * 50)}%,${30 + Math.floor(random() * 50)}%)`;
    return random() < 0.5
      ? `<circle cx="${random() * 600}" cy="${random() * 600}" r="${10 + random() * 120}" fill="${colour}" fill-opacity="0.8"/>`
      : `<rect x="${random() * 600}" y="${random() * 600}" width="${20 + random() * 200}" height="${20 + random() * 200}" fill="${colour}" transform="rotate(${random() * 90} 300 300)"/>`;
  }).join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${(seed * 37) % 360},70%,40%)"/><stop offset="1" stop-color="hsl(${(seed * 53) % 360},60%,70%)"/></linearGradient></defs><rect width="600" height="600" fill="url(#g)"/>${shapes}<text x="40" y="540" font-size="64" font-family="sans-serif" fill="#fff">Cover ${seed}</text></svg>`;
}

/** A 600×600 JPEG cover (the service stores it as its 3000×3000 PNG, upscaled). */
export async function albumCover(seed: number): Promise<Buffer> {
  const grain = await sharp({
    create: {
      width: 600,
      height: 600,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 40 },
    },
  })
    .blur(1.5)
    .png()
    .toBuffer();
  return sharp(Buffer.from(artwork(seed)))
    .composite([{ input: grain, blend: 'overlay' }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** Uploads `count` different covers for the token's account, answering their file URLs. */
export async function uploadCovers(baseUrl: string, token: string, count: number): Promise<string[]> {
  const urls: string[] = [];
  for (let seed = 1; seed <= count; seed++) {
    const answer = await request(baseUrl, 'POST', '/v1/files', {
      token,
      body: {
        type: 'coverArt',
        file_name: `cover-${seed}.jpg`,
        data_base64: (await albumCover(seed)).toString('base64'),
      },
    });
    if (answer.status !== 201) throw new Error(`cover upload failed: ${JSON.stringify(answer.body)}`);
    urls.push(answer.body.fileUrl as string);
  }
  return urls;
}
