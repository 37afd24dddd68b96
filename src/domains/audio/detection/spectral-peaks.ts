import FFT from 'fft.js';

/** Frame length of the averaged spectrum: about 5.4 Hz per bin at 44.1 kHz. */
const FRAME = 8192;
/** Output rates of neural decoders the peaks are looked for at (a resample keeps them in place). */
const DECODER_RATES = [44_100, 48_000] as const;
/** Total upsampling factors looked at: a stride-s chain leaves peaks at k·rate/s. */
const STRIDES = [4, 8, 16, 32] as const;
/** The band searched: above most of the music's energy slope, below MP3 encoders' low-pass. */
const BAND_HZ = [1_000, 16_000] as const;
/** How far around a peak the local floor is taken (bins), and the peak's own half-width. */
const FLOOR_BINS = 24;
const PEAK_BINS = 2;
/**
 * Peaks further than this below the loudest bin do not count: that deep, a "peak" is quantisation or
 * dither residue (a pure 16-bit tone shows some at -110 dB), not a decoder's audible comb (-25..-50 dB).
 */
const AUDIBLE_RANGE_DB = 75;

export interface PeakFeatures {
  /** Mean height (dB over the local spectral floor) of the peaks of the best-fitting chain. */
  prominenceDb: number;
  stride: number;
  decoderRate: number;
  frames: number;
}

/** The long-term power spectrum in dB: Hann-windowed frames, half-overlapping, averaged. */
export function averageSpectrumDb(samples: Float32Array, frame = FRAME): Float64Array {
  const fft = new FFT(frame);
  const window = new Float64Array(frame);
  for (let i = 0; i < frame; i++) window[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (frame - 1));
  const input = new Array<number>(frame).fill(0);
  const out = fft.createComplexArray() as number[];
  const power = new Float64Array(frame / 2 + 1);
  let frames = 0;
  for (let start = 0; start + frame <= samples.length; start += frame / 2) {
    for (let i = 0; i < frame; i++) input[i] = (samples[start + i] ?? 0) * (window[i] ?? 0);
    fft.realTransform(out, input);
    for (let bin = 0; bin <= frame / 2; bin++) {
      const re = out[2 * bin] ?? 0;
      const im = out[2 * bin + 1] ?? 0;
      power[bin] = (power[bin] ?? 0) + re * re + im * im;
    }
    frames++;
  }
  const db = new Float64Array(power.length);
  for (let bin = 0; bin < power.length; bin++) {
    db[bin] = 10 * Math.log10((power[bin] ?? 0) / Math.max(frames, 1) + 1e-20);
  }
  return db;
}

function median(values: number[]): number {
  const sorted = values.sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** How far the spectrum at `hz` stands above its neighbourhood (the median of the bins around it). */
function peakHeight(
  db: Float64Array,
  hz: number,
  sampleRate: number,
  frame: number,
  loudest: number,
): number {
  const centre = Math.round((hz * frame) / sampleRate);
  let top = -Infinity;
  for (let bin = centre - PEAK_BINS; bin <= centre + PEAK_BINS; bin++)
    top = Math.max(top, db[bin] ?? -Infinity);
  if (top < loudest - AUDIBLE_RANGE_DB) return 0;
  const floor: number[] = [];
  for (let offset = PEAK_BINS + 2; offset <= FLOOR_BINS; offset++) {
    const below = db[centre - offset];
    const above = db[centre + offset];
    if (below !== undefined) floor.push(below);
    if (above !== undefined) floor.push(above);
  }
  return top - median(floor);
}

/**
 * The upsampling-peak feature: for each decoder rate and stride, the mean peak height at the
 * frequencies k·rate/stride inside the band; the best-fitting chain wins.
 */
export function upsamplingPeaks(samples: Float32Array, sampleRate: number): PeakFeatures {
  const db = averageSpectrumDb(samples);
  let loudest = -Infinity;
  for (const value of db) loudest = Math.max(loudest, value);
  const frames = Math.max(0, Math.floor((samples.length - FRAME) / (FRAME / 2)) + 1);
  let best: PeakFeatures = { prominenceDb: 0, stride: 0, decoderRate: 0, frames };
  for (const decoderRate of DECODER_RATES) {
    for (const stride of STRIDES) {
      const heights: number[] = [];
      for (let k = 1; k < stride; k++) {
        const hz = (k * decoderRate) / stride;
        if (hz < BAND_HZ[0] || hz > BAND_HZ[1] || hz >= sampleRate / 2 - 100) continue;
        // Capped, so one loud tone of the music cannot stand in for a whole comb of peaks.
        heights.push(Math.min(peakHeight(db, hz, sampleRate, FRAME, loudest), 30));
      }
      if (heights.length === 0) continue;
      const mean = heights.reduce((sum, h) => sum + h, 0) / heights.length;
      if (mean > best.prominenceDb) best = { prominenceDb: mean, stride, decoderRate, frames };
    }
  }
  return best;
}
