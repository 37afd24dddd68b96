import express, { type Response } from 'express';
import { isAppError } from '../../src/platform/errors.ts';
import { statusForError } from '../rest/errors.ts';

/** The body parser of the server-rendered forms (sign-in, consent, settings): small, flat, few fields. */
export const formBody = () => express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 20 });

/**
 * A sign-in or sign-up the domain refused, as its page answers it: the status of the error's type and
 * its message, with Retry-After set when the refusal says when to try again. Anything else is rethrown.
 */
export function refusedAttempt(res: Response, error: unknown): { status: number; message: string } {
  if (!isAppError(error)) throw error;
  if (error.retryAfterSeconds !== undefined) res.setHeader('Retry-After', String(error.retryAfterSeconds));
  return { status: statusForError(error.type), message: error.message };
}
