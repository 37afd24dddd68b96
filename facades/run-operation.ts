import type { Response } from 'express';
import type { Channel } from '../schema/context.ts';
import type { ErrorExtensions } from '../schema/errors.ts';
import { errorExtensions } from '../schema/errors.ts';
import { type PreparedOperation, type RunOptions, runOperation } from '../schema/execute.ts';
import type { AppServices } from '../schema/services.ts';
import { envelopeFrom, sendError } from './rest/errors.ts';

/** Who calls (null: anonymous), without the facade importing the accounts domain. */
export type Principal = RunOptions['principal'];

/** An operation's first error: its message and typed extensions, for each facade to put in its envelope. */
export interface OperationError {
  message: string;
  extensions: ErrorExtensions;
}

export type RunOutcome = { value: unknown } | { error: OperationError };

/**
 * How every facade runs a prepared operation: the result field `select` (all the data without one), or
 * the first error, if any.
 */
export async function runAndSelect(
  app: AppServices,
  operation: PreparedOperation,
  select: string | undefined,
  options: RunOptions,
): Promise<RunOutcome> {
  const result = await runOperation(app, operation, options);
  const [error] = result.errors;
  if (error) return { error: { message: error.message, extensions: errorExtensions(error) } };
  return { value: select ? result.data?.[select] : result.data };
}

/** Answers an operation's error as the REST error envelope. */
export function sendOperationError(res: Response, error: OperationError): void {
  sendError(res, envelopeFrom(error.message, error.extensions));
}

/**
 * Runs an operation for an HTTP route outside the route table (payments, file bytes): its data, or null
 * once its error has been answered in the REST envelope.
 */
export async function runOrAnswer(
  app: AppServices,
  res: Response,
  operation: PreparedOperation,
  principal: Principal,
  variables: Record<string, unknown>,
  channel: Channel = 'rest',
): Promise<Record<string, unknown> | null> {
  const outcome = await runAndSelect(app, operation, undefined, {
    principal,
    channel,
    variables,
    requestId: String(res.locals.requestId ?? ''),
  });
  if ('error' in outcome) {
    sendOperationError(res, outcome.error);
    return null;
  }
  return (outcome.value as Record<string, unknown> | null) ?? {};
}
