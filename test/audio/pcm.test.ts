import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decodePcm } from '../../src/domains/audio/pcm.ts';
import { musicLike, wavBytes } from '../support/synthetic-audio.ts';

describe('decoding audio', () => {
  it('reads only the seconds it needs and closes the source it was given', async () => {
    const bytes = wavBytes(musicLike(7, 60));
    const chunk = 64 * 1024;
    let served = 0;
    const source = new Readable({
      highWaterMark: chunk,
      read() {
        this.push(served < bytes.length ? bytes.subarray(served, served + chunk) : null);
        served += chunk;
      },
    });
    const pcm = await decodePcm(source, { sampleRate: 8000, maxSeconds: 1, format: 's16le' });
    expect(pcm.samples.length).toBe(8000);
    expect(served).toBeLessThan(bytes.length);
    expect(source.destroyed).toBe(true);
  });
});
