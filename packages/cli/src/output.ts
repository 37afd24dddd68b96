import { AuthenticationError, TributaryError, ValidationError } from '@tributary/client';
import { CliError, EXIT } from './exit-codes.ts';

/** How a command writes: one JSON document (`--json`), live bars (a TTY), or plain lines. */
export interface Output {
  json: boolean;
  /** Interactive: stdout is a terminal and `--json` is off. */
  tty: boolean;
  /** A line for people (nothing under `--json`). */
  line(text: string): void;
  /** The command's result: the JSON document, or its text. */
  result(value: unknown, text?: string): void;
}

/** A command that wrote its document and then fails (a blocked release) writes no second one. */
let documentWritten = false;

export function createOutput(json: boolean): Output {
  return {
    json,
    tty: !json && Boolean(process.stdout.isTTY),
    line: (text) => {
      if (!json) process.stdout.write(`${text}\n`);
    },
    result: (value, text) => {
      if (json) {
        process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
        documentWritten = true;
      } else if (text !== undefined) process.stdout.write(`${text}\n`);
    },
  };
}

/** The exit code and the error document of a failure. */
export function describeFailure(error: unknown): { exitCode: number; document: Record<string, unknown> } {
  if (error instanceof CliError)
    return { exitCode: error.exitCode, document: { error: { code: error.code, message: error.message } } };
  if (error instanceof TributaryError) {
    const exitCode = error instanceof AuthenticationError ? EXIT.notLoggedIn : EXIT.apiError;
    return {
      exitCode,
      document: {
        error: {
          type: error.type,
          code: error.code,
          message: error.message,
          ...(error instanceof ValidationError || error.details.length ? { details: error.details } : {}),
          ...(error.requestId ? { requestId: error.requestId } : {}),
        },
      },
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { exitCode: EXIT.apiError, document: { error: { code: 'request_failed', message } } };
}

/** Writes a failure (the JSON document on stdout under `--json`, else a message on stderr). */
export function reportFailure(error: unknown, json: boolean): number {
  const { exitCode, document } = describeFailure(error);
  if (json) {
    if (!documentWritten) process.stdout.write(`${JSON.stringify(document, null, 2)}\n`);
  } else {
    const failure = document.error as {
      message: string;
      details?: { path: string; message: string }[];
      requestId?: string;
    };
    process.stderr.write(`error: ${failure.message}\n`);
    for (const detail of failure.details ?? []) process.stderr.write(`  ${detail.path}: ${detail.message}\n`);
    if (exitCode === EXIT.notLoggedIn && error instanceof AuthenticationError)
      process.stderr.write('run `tributary login` to sign in again\n');
    if (failure.requestId) process.stderr.write(`request id: ${failure.requestId}\n`);
  }
  return exitCode;
}
