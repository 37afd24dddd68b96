import { AppError } from '../errors.ts';

/**
 * Values PostgreSQL refuses (SQLSTATE class 22, "data exception"), as the caller's mistake rather than a
 * 500. This is the second line: input is validated at the edge with limits that match the columns, so
 * reaching here means an edge check is missing; the answer is still precise enough to fix the request.
 */
const REFUSALS: Record<string, { code: string; message: string }> = {
  '22001': {
    code: 'value_too_long',
    message: 'A text value is longer than its field allows; see the field limits in the API reference.',
  },
  '22021': { code: 'invalid_string', message: 'Text must be valid UTF-8 without NUL (\\u0000) characters.' },
  '22P05': { code: 'invalid_string', message: 'Text must be valid UTF-8 without NUL (\\u0000) characters.' },
  '22P02': {
    code: 'invalid_value',
    message: 'A value is not in the form its field needs (for example an id that is not a UUID).',
  },
  '22003': { code: 'value_out_of_range', message: 'A number is outside the range its field allows.' },
  '22007': { code: 'invalid_value', message: 'A date or time value is not valid.' },
  '22008': { code: 'invalid_value', message: 'A date or time value is out of range.' },
  '22023': { code: 'invalid_value', message: 'A value is not valid for its field.' },
  '22025': { code: 'invalid_value', message: 'A text value has an invalid escape sequence.' },
  '2202E': { code: 'invalid_value', message: 'An array value is not valid.' },
  '22030': { code: 'invalid_value', message: 'A JSON value repeats a key or is not valid.' },
  '22032': { code: 'invalid_value', message: 'A JSON value is not valid.' },
  '54001': { code: 'value_too_complex', message: 'A value nests too deeply or is too complex to store.' },
};

/** The database's refusal of a value in `error` (or its causes) as an invalid_request_error, else null. */
export function databaseRefusal(error: unknown): AppError | null {
  let current: unknown = error;
  for (let depth = 0; current && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    const refusal = typeof code === 'string' ? REFUSALS[code] : undefined;
    if (refusal)
      return new AppError('invalid_request_error', refusal.code, refusal.message, { cause: error });
    current =
      (current as { originalError?: unknown }).originalError ?? (current as { cause?: unknown }).cause;
  }
  return null;
}
