import { AppError } from '../../../platform/errors.ts';
import type { OutboundClient } from '../../../platform/http/index.ts';
import type { AiDetector, AiVerdict } from './port.ts';

/** The most of a vendor's answer read (a verdict is a few hundred bytes). */
const MAX_RESPONSE_BYTES = 64 * 1024;

export interface HttpDetectorOptions {
  url: string;
  apiKey: string | undefined;
  timeoutSeconds: number;
  outbound: OutboundClient;
}

const upstream = (code: string, message: string) => new AppError('upstream_error', code, message);

async function readJson(body: NodeJS.ReadableStream): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > MAX_RESPONSE_BYTES)
      throw upstream('upstream_invalid_response', 'The AI detector answered too much.');
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw upstream('upstream_invalid_response', 'The AI detector did not answer JSON.');
  }
}

const numberIn01 = (value: unknown) =>
  typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= 1 ? value : null;

/**
 * A vendor detector over HTTP: POSTs the audio bytes to AI_DETECTION_URL (Bearer AI_DETECTION_API_KEY)
 * and reads `{aiScore, containsAi?, predictedModel?, predictedModelScore?, model?, message?}`
 * (docs/audio.md). Timeouts, refusals, non-2xx and malformed answers are upstream_error.
 */
export function createHttpAiDetector(options: HttpDetectorOptions): AiDetector {
  return {
    provider: new URL(options.url).host,
    model: 'vendor',
    async analyse(audio, requestOptions = {}): Promise<AiVerdict> {
      const timeout = AbortSignal.timeout(options.timeoutSeconds * 1000);
      const signal = requestOptions.signal ? AbortSignal.any([timeout, requestOptions.signal]) : timeout;
      let response: Awaited<ReturnType<OutboundClient['request']>>;
      try {
        response = await options.outbound.request(options.url, {
          method: 'POST',
          headers: {
            'content-type': audio.contentType,
            'content-length': String(audio.size),
            'x-file-name': encodeURIComponent(audio.name),
            'x-content-sha256': audio.sha256,
            ...(options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {}),
          },
          body: await audio.open(),
          signal,
          fieldPath: 'AI_DETECTION_URL',
        });
      } catch (error) {
        if (timeout.aborted)
          throw upstream(
            'upstream_timeout',
            `The AI detector did not answer in ${options.timeoutSeconds} s.`,
          );
        if (error instanceof AppError && error.type === 'upstream_error') throw error;
        throw upstream('upstream_unreachable', 'The AI detector could not be reached.');
      }
      if (response.status < 200 || response.status >= 300) {
        response.dispose();
        throw upstream('upstream_status', `The AI detector answered with HTTP status ${response.status}.`);
      }
      let body: unknown;
      try {
        body = await readJson(response.body);
      } catch (error) {
        if (timeout.aborted)
          throw upstream(
            'upstream_timeout',
            `The AI detector did not answer in ${options.timeoutSeconds} s.`,
          );
        throw error;
      } finally {
        response.dispose();
      }
      const answer = (body ?? {}) as Record<string, unknown>;
      const aiScore = numberIn01(answer.aiScore);
      if (aiScore === null)
        throw upstream('upstream_invalid_response', 'The AI detector answered no aiScore in 0..1.');
      const verdict: AiVerdict = {
        aiScore,
        containsAi: typeof answer.containsAi === 'boolean' ? answer.containsAi : aiScore >= 0.5,
        predictedModel:
          typeof answer.predictedModel === 'string' ? answer.predictedModel.slice(0, 200) : null,
        predictedModelScore: numberIn01(answer.predictedModelScore),
        message: typeof answer.message === 'string' ? answer.message.slice(0, 1000) : null,
      };
      if (typeof answer.model === 'string' && answer.model.length > 0)
        verdict.model = answer.model.slice(0, 100);
      return verdict;
    },
  };
}
