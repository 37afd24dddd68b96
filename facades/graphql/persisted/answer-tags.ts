import { hash as digest } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * What the tags of GET answers keep: the last answer of a few hundred URLs, each URL no longer than
 * 4,096 characters and each answer than 16,384 (a 25-store status read's is about 2,200), so about
 * 5 MB in all.
 */
export const ANSWER_TAG_LIMITS = { urls: 256, urlCharacters: 4_096, answerCharacters: 16_384 } as const;

/** An answer's entity tag: its SHA-256, 27 characters of base64url, quoted. */
export const tagOfAnswer = (answer: string): string =>
  `"${digest('sha256', answer, 'base64url').slice(0, 27)}"`;

/**
 * The ETags of GET answers. A dashboard polls one URL and mostly gets the answer it got before: the
 * last answer of each URL is kept beside its tag and compared whole with the new one, which costs a
 * tenth of hashing it. The tag is always the answer's own (a different answer, whoever asked for the
 * URL, is hashed), so the URL only decides how often the comparison saves the hash.
 */
export class AnswerTags {
  private readonly last = new LRUCache<string, { answer: string; tag: string }>({
    max: ANSWER_TAG_LIMITS.urls,
  });

  tagFor(url: string, answer: string): string {
    const kept = this.last.get(url);
    if (kept !== undefined && kept.answer === answer) return kept.tag;
    const tag = tagOfAnswer(answer);
    if (answer.length <= ANSWER_TAG_LIMITS.answerCharacters && url.length <= ANSWER_TAG_LIMITS.urlCharacters)
      this.last.set(url, { answer, tag });
    return tag;
  }
}
