import { type Report, text } from './issues.ts';
import { isAiDeclared } from './normalise.ts';
import type { ValidIsrc } from './rules-identifiers.ts';
import type { Scope } from './scope.ts';
import type { RuleContext, TrackInput } from './types.ts';

const LOSSY_WARNINGS: Readonly<Record<string, string>> = {
  audio_lossy_source: 'the source is lossy',
  audio_low_sample_rate: 'the sample rate is below 44.1 kHz',
  audio_low_bit_depth: 'the bit depth is below 16 bits',
};
const UNDECODABLE_WARNINGS = ['undecodable_audio', 'audio_undecodable'];
const UPSCALED_WARNING = 'cover_art_upscaled';

export interface LookupInputs {
  isrcs: ValidIsrc[];
  upc: string | undefined;
  /** Valid track_type per track index (undefined when omitted or invalid). */
  trackTypes: Map<number, string | undefined>;
}

type Facts = Awaited<ReturnType<RuleContext['fileFacts']>>;

/**
 * The rules that need the platform: file ownership and facts, cached AI-detection and registry-match
 * results, catalog uniqueness of ISRC and UPC. Every lookup starts at once and runs once per distinct value.
 */
export async function checkLookups(
  scope: Scope,
  ctx: RuleContext,
  inputs: LookupInputs,
  report: Report,
): Promise<void> {
  const started = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, run: () => Promise<T>): Promise<T> => {
    let promise = started.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = run();
      started.set(key, promise);
    }
    return promise;
  };
  const owns = (url: string, store: 'cover-art' | 'audio') =>
    once(`owns:${store}:${url}`, () => ctx.ownsFile(url, store));
  const facts = (url: string) => once<Facts>(`facts:${url}`, () => ctx.fileFacts(url));
  const checks: Promise<void>[] = [];

  const cover = text(scope.release.cover_art_file_url);
  if (cover !== undefined) {
    const owned = owns(cover, 'cover-art');
    const coverFacts = facts(cover);
    checks.push(
      (async () => {
        if (!(await owned)) {
          report(
            'cover-art.owned-file',
            'release.cover_art_file_url',
            `${cover} is not a file of yours in the cover-art store (/api/files/cover-art/<user_id>/<name>).`,
          );
          return;
        }
        if ((await coverFacts)?.warnings.includes(UPSCALED_WARNING)) {
          report(
            'cover-art.upscaled',
            'release.cover_art_file_url',
            'The cover art source was smaller than 3000x3000 and was upscaled; it may look soft in stores.',
          );
        }
      })(),
    );
  }

  for (const { track, path, index } of scope.trackViews) {
    const url = text(track.audio_file_url);
    if (url === undefined) continue;
    const urlPath = `${path}.audio_file_url`;
    const owned = owns(url, 'audio');
    const audioFacts = facts(url);
    const declaredHuman = !isAiDeclared(track as TrackInput);
    const detection = declaredHuman ? once(`ai:${url}`, () => ctx.aiDetection(url)) : undefined;
    const trackTypeSent = track.track_type !== undefined && track.track_type !== null;
    const original = trackTypeSent ? inputs.trackTypes.get(index) === 'original' : true;
    const match = original ? once(`registry:${url}`, () => ctx.registryMatch(url)) : undefined;
    checks.push(
      (async () => {
        if (!(await owned)) {
          report(
            'audio.owned-file',
            urlPath,
            `${url} is not a file of yours in the audio store (/api/files/audio/<user_id>/<name>).`,
          );
          return;
        }
        const found = await audioFacts;
        if (found?.warnings.some((code) => UNDECODABLE_WARNINGS.includes(code))) {
          report('audio.decodable', urlPath, 'The audio file cannot be decoded.');
          return;
        }
        const reasons = (found?.warnings ?? []).flatMap((code) => LOSSY_WARNINGS[code] ?? []);
        if (found?.lossless === false && !reasons.includes(LOSSY_WARNINGS.audio_lossy_source ?? '')) {
          reasons.unshift('the source is lossy');
        }
        if (reasons.length > 0) {
          report(
            'audio.lossless',
            urlPath,
            `The audio is not a lossless master (${reasons.join(', ')}); stores expect WAV or FLAC at 16 or ` +
              '24 bits and 44.1 kHz or more.',
          );
        }
      })(),
    );
    if (detection) {
      checks.push(
        (async () => {
          if ((await detection)?.containsAi === true) {
            report(
              'ai.detector-mismatch',
              urlPath,
              'The AI detector found AI-generated audio in a track declared human; billing follows the ' +
                'detector (AI rate).',
            );
          }
        })(),
      );
    }
    if (match) {
      checks.push(
        (async () => {
          if ((await match)?.matched === true) {
            report(
              'cover.registry-match-ownership',
              `${path}.track_type`,
              'The audio matches a registered recording; confirm you own it, or mark the track with ' +
                'track_type "cover".',
            );
          }
        })(),
      );
    }
  }

  for (const { isrc, path } of inputs.isrcs) {
    const inUse = once(`isrc:${isrc}`, () => ctx.isrcInUse(isrc));
    checks.push(
      (async () => {
        if (await inUse) {
          report(
            'isrc.unique-in-catalog',
            path,
            `ISRC ${isrc} is already assigned to another recording in the catalog.`,
          );
        }
      })(),
    );
  }

  const upc = inputs.upc;
  if (upc !== undefined) {
    const inUse = once(`upc:${upc}`, () => ctx.upcInUse(upc));
    checks.push(
      (async () => {
        if (await inUse) {
          report(
            'upc.unique-in-catalog',
            'release.upc',
            `UPC ${upc} is already assigned to another release.`,
          );
        }
      })(),
    );
  }

  // Awaiting every lookup too leaves none unhandled when a check returned before reading it.
  await Promise.all([...checks, ...started.values()]);
}
