import { releaseSchema } from '../../../src/domains/releases/release-schema.ts';
import { evaluateRules, normaliseSubmission } from '../../../src/domains/releases/rules/engine/index.ts';
import type { RuleContext, RuleIssue } from '../../../src/domains/releases/rules/engine/types.ts';

export const NOW = new Date('2026-03-01T12:00:00Z');

/** What the fake platform answers; everything not listed is the answer for a clean, owned file. */
export interface FakeAnswers {
  now?: Date;
  /** URLs the caller does not own (default: every URL under /api/files/<store>/ is owned, nothing else). */
  notOwned?: string[];
  facts?: Record<string, { warnings: string[]; lossless: boolean | null } | null>;
  isrcsInUse?: string[];
  upcsInUse?: string[];
  aiDetections?: Record<string, { containsAi: boolean } | null>;
  registryMatches?: Record<string, { matched: boolean } | null>;
  /** Milliseconds each lookup waits (per URL or value), to shuffle completion order. */
  delays?: Record<string, number>;
}

export interface FakeContext extends RuleContext {
  calls: string[];
  /** Highest number of lookups in flight at the same time. */
  maxInFlight(): number;
}

export function fakeContext(answers: FakeAnswers = {}): FakeContext {
  const calls: string[] = [];
  let inFlight = 0;
  let peak = 0;
  const answer = async <T>(call: string, key: string, value: () => T): Promise<T> => {
    calls.push(call);
    inFlight++;
    peak = Math.max(peak, inFlight);
    await new Promise((resolve) => setTimeout(resolve, answers.delays?.[key] ?? 1));
    inFlight--;
    return value();
  };
  return {
    now: answers.now ?? NOW,
    calls,
    maxInFlight: () => peak,
    ownsFile: (url, store) =>
      answer(
        `ownsFile ${store} ${url}`,
        url,
        () => url.startsWith(`/api/files/${store}/`) && !(answers.notOwned ?? []).includes(url),
      ),
    fileFacts: (url) =>
      answer(`fileFacts ${url}`, url, () =>
        answers.facts && url in answers.facts
          ? (answers.facts[url] ?? null)
          : { warnings: [], lossless: true },
      ),
    isrcInUse: (isrc) => answer(`isrcInUse ${isrc}`, isrc, () => (answers.isrcsInUse ?? []).includes(isrc)),
    upcInUse: (upc) => answer(`upcInUse ${upc}`, upc, () => (answers.upcsInUse ?? []).includes(upc)),
    aiDetection: (url) => answer(`aiDetection ${url}`, url, () => answers.aiDetections?.[url] ?? null),
    registryMatch: (url) => answer(`registryMatch ${url}`, url, () => answers.registryMatches?.[url] ?? null),
  };
}

export type Json = Record<string, unknown>;
export interface Payload {
  release: Json;
  tracks: Json[];
  [key: string]: unknown;
}

/** A fresh copy of the /release-schema example (two tracks, release date four weeks after NOW). */
export function validPayload(): Payload {
  return structuredClone(releaseSchema(NOW).example) as unknown as Payload;
}

export function track(payload: Payload, index: number): Json {
  const found = payload.tracks[index];
  if (!found) throw new Error(`no track ${index}`);
  return found;
}

export async function evaluate(payload: unknown, answers: FakeAnswers = {}): Promise<RuleIssue[]> {
  return evaluateRules(normaliseSubmission(payload), fakeContext(answers));
}

export const COVER_URL = '/api/files/cover-art/<user_id>/cover.png';
export const AUDIO_1 = '/api/files/audio/<user_id>/track-1.flac';
export const AUDIO_2 = '/api/files/audio/<user_id>/track-2.flac';
