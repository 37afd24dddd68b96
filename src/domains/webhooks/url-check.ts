import { isIP } from 'node:net';
import { AppError } from '../../platform/errors.ts';
import {
  checkAddress,
  describeAddressClass,
  type OutboundPolicy,
  type Resolver,
  systemResolver,
} from '../../platform/http/index.ts';

const MAX_URL_LENGTH = 2048;

function refuse(code: string, message: string, fieldPath: string): AppError {
  return new AppError('invalid_request_error', code, message, { details: [{ path: fieldPath, message }] });
}

/**
 * Checks a webhook URL when it is registered: absolute https, no credentials, and a host that is
 * (or resolves only to) addresses the outbound policy allows. Delivery checks again at connection
 * time (the platform's HTTP client), since DNS answers can change after registration.
 */
export async function checkWebhookUrl(
  input: string,
  options: { policy: OutboundPolicy; resolver?: Resolver; fieldPath?: string },
): Promise<URL> {
  const fieldPath = options.fieldPath ?? 'url';
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw refuse('invalid_url', 'The webhook URL is not a valid absolute URL.', fieldPath);
  }
  if (input.length > MAX_URL_LENGTH) {
    throw refuse('invalid_url', `The webhook URL is longer than ${MAX_URL_LENGTH} characters.`, fieldPath);
  }
  if (url.protocol !== 'https:') throw refuse('url_not_https', 'The webhook URL must use https.', fieldPath);
  if (url.username !== '' || url.password !== '') {
    throw refuse(
      'url_not_allowed',
      'Webhook URLs with credentials (user:password@) are not accepted.',
      fieldPath,
    );
  }
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  if (isIP(host) !== 0) addresses = [host];
  else {
    try {
      addresses = (await (options.resolver ?? systemResolver)(host)).map((a) => a.address);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) {
      throw refuse('url_unresolvable', `The webhook URL host ${host} could not be resolved.`, fieldPath);
    }
  }
  for (const address of addresses) {
    const verdict = checkAddress(address, options.policy);
    if (!verdict.allowed) {
      const what = describeAddressClass(verdict.reason ?? 'invalid');
      const via = address === host ? ` (${host})` : ` (${host} resolves to ${address})`;
      throw refuse(
        'url_not_allowed',
        `The webhook URL points to ${what}${via}; only public internet addresses can receive webhooks.`,
        fieldPath,
      );
    }
  }
  url.hash = '';
  return url;
}
