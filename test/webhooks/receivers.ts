import { verify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import type { ReceivedRequest } from './harness.ts';

/** What a receiver holding `secret` and using the `standardwebhooks` package makes of a request. */
export function standardVerifies(secret: string, request: ReceivedRequest): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

/** What a receiver holding `secret` and checking the legacy `x-svc-signature` header makes of it. */
export function legacyVerifies(secret: string, request: ReceivedRequest): Promise<boolean> {
  return verify(secret, request.body, String(request.headers['x-svc-signature']));
}

/**
 * A secret made before signing secrets were standard base64 (base64url, no padding) as its receiver
 * gives it to the `standardwebhooks` package: `-` as `+`, `_` as `/`, `=` padding added.
 */
export function asStandardBase64(secret: string): string {
  const encoded = secret.slice('whsec_'.length).replace(/-/g, '+').replace(/_/g, '/');
  return `whsec_${encoded.padEnd(Math.ceil(encoded.length / 4) * 4, '=')}`;
}
