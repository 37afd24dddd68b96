import type { ErrorExtensions } from '../../schema/errors.ts';
import { errorExtensions } from '../../schema/errors.ts';
import { type PreparedOperation, type RunOptions, runOperation } from '../../schema/execute.ts';
import type { AppServices } from '../../schema/services.ts';

/** Who calls (null: anonymous), without the facade importing the accounts domain. */
export type Principal = RunOptions['principal'];

export type RunOutcome = { value: unknown } | { error: { message: string; extensions: ErrorExtensions } };

/** Runs a prepared operation and picks the result field; the first error, if any, wins. */
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
