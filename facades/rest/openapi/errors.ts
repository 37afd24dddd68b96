import type { ErrorType } from '../../../src/platform/errors.ts';
import type { JsonSchema, OpenApiResponse } from './types.ts';

/** Every error `type` of the spec's Errors table, in its order, plus `unavailable_error` (503, the agent table's). */
export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'not_found_error',
  'conflict_error',
  'validation_error',
  'locked_error',
  'rate_limit_error',
  'oauth_error',
  'upstream_error',
  'unavailable_error',
  'api_error',
] as const satisfies readonly ErrorType[];

// Fails to compile when the platform gains an error type this list does not name.
const everyType: Record<Exclude<ErrorType, (typeof ERROR_TYPES)[number]>, never> = {};
void everyType;

/** What each error type means, as the spec's Errors table says. */
export const ERROR_TYPE_NOTES: Record<ErrorType, string> = {
  invalid_request_error: 'Malformed request: bad JSON, a parameter of the wrong type or out of range.',
  authentication_error: 'Missing, invalid, expired or revoked token.',
  permission_error: 'Not allowed for this account or token, e.g. a missing scope.',
  not_found_error: 'No such resource, or not one of yours.',
  conflict_error: 'The request conflicts with the current state.',
  validation_error: 'Content rejected; code `validation_failed` with `details` naming the field paths.',
  locked_error: 'The account is locked.',
  rate_limit_error: 'Too many requests; honour `Retry-After` / `retryAfterSeconds`.',
  oauth_error: 'Token endpoint errors, e.g. `invalid_grant`.',
  upstream_error: 'The platform returned something unexpected; safe to retry with backoff.',
  unavailable_error: 'The capability is turned off on this environment (e.g. image generation).',
  api_error: 'Unexpected error; quote the `requestId` when reporting it.',
};

export const ERROR_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The error envelope every REST error answers with.',
  properties: {
    type: { type: 'string', enum: [...ERROR_TYPES], description: 'The error family; fixes the HTTP status.' },
    code: {
      type: 'string',
      description: 'A stable machine-readable code, e.g. `validation_failed`, `invalid_token`.',
    },
    message: { type: 'string', description: 'A human-readable explanation.' },
    details: {
      type: 'array',
      description: 'Per-field problems, e.g. path `tracks[0].writers[0].name`.',
      items: {
        type: 'object',
        properties: {
          path: { type: 'string', description: 'The offending field, in the request’s own names.' },
          message: { type: 'string' },
          rule: { type: 'string', description: 'The rule that was broken, when one applies.' },
        },
        required: ['path', 'message'],
        additionalProperties: false,
      },
    },
    retryAfterSeconds: { type: 'number', description: 'With rate_limit_error: seconds to wait.' },
    requestId: { type: 'string', description: 'With api_error: the id to quote when reporting it.' },
  },
  required: ['type', 'code', 'message'],
  additionalProperties: false,
};

const ERROR_REF = { $ref: '#/components/schemas/Error' };

function errorResponse(description: string, headers?: OpenApiResponse['headers']): OpenApiResponse {
  return {
    description,
    ...(headers ? { headers } : {}),
    content: { 'application/json': { schema: ERROR_REF } },
  };
}

/** Reusable error responses, keyed by HTTP status. */
export const ERROR_RESPONSES: Record<string, { name: string; response: OpenApiResponse }> = {
  '400': {
    name: 'BadRequest',
    response: errorResponse('`invalid_request_error`: malformed request (bad JSON, bad parameter).'),
  },
  '401': {
    name: 'Unauthorized',
    response: errorResponse(
      '`authentication_error`: missing, malformed, unknown, expired or revoked token.',
      {
        'WWW-Authenticate': { description: 'The bearer challenge.', schema: { type: 'string' } },
      },
    ),
  },
  '403': {
    name: 'Forbidden',
    response: errorResponse('`permission_error`: the token or account may not do this (e.g. missing scope).'),
  },
  '404': {
    name: 'NotFound',
    response: errorResponse('`not_found_error`: no such resource, or not owned by the caller.'),
  },
  '409': {
    name: 'Conflict',
    response: errorResponse('`conflict_error`: the request conflicts with the current state.'),
  },
  '422': {
    name: 'ValidationFailed',
    response: errorResponse('`validation_error` with code `validation_failed` and `details` field paths.'),
  },
  '429': {
    name: 'RateLimited',
    response: errorResponse('`rate_limit_error`: too many requests.', {
      'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer' } },
      'RateLimit-Policy': {
        description:
          'The budgets the request spent from or was refused by (draft-ietf-httpapi-ratelimit-headers): ' +
          '`"<policy>";q=<quota>;w=<window seconds>`, comma-separated.',
        schema: { type: 'string' },
      },
      RateLimit: {
        description:
          'What is left of each: `"<policy>";r=<remaining>;t=<seconds until points come back>`; the one ' +
          'that refused has r=0. GET /v1/rate-limits lists every limit.',
        schema: { type: 'string' },
      },
    }),
  },
  '502': {
    name: 'UpstreamError',
    response: errorResponse(
      '`upstream_error`: a provider failed; retry (image generation: with the same prompt).',
    ),
  },
  '503': {
    name: 'Unavailable',
    response: errorResponse('`unavailable_error`: the capability is turned off on this environment.'),
  },
  '500': {
    name: 'InternalError',
    response: errorResponse('`api_error`: unexpected error; the body carries a `requestId`.'),
  },
};

/** The error statuses an operation documents. */
export function errorStatusesFor(options: {
  bearer: boolean;
  pathParams: boolean;
  mutates: boolean;
  /** Statuses beyond the usual ones, e.g. 502/503 of a route that calls a provider. */
  extra?: readonly string[];
}): string[] {
  return [
    '400',
    ...(options.bearer ? ['401', '403'] : []),
    ...(options.pathParams ? ['404'] : []),
    ...(options.mutates ? ['409', '422'] : []),
    '429',
    '500',
    ...(options.extra ?? []),
  ];
}
