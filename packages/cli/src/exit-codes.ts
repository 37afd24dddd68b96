/** The CLI's exit codes (docs/cli.md, "Exit codes"). */
export const EXIT = {
  ok: 0,
  /** The API answered an error, or could not be reached. */
  apiError: 1,
  /** A wrong command line (unknown command or option, missing argument, unreadable file). */
  usage: 2,
  /** No credentials, or the service refused them (401). */
  notLoggedIn: 3,
  /** A watched release ended with a store that failed or rejected it. */
  storeFailed: 4,
  /** The release has blocking rule findings (validate, quote, submit). */
  blocked: 5,
  /** Interrupted (Ctrl-C); an upload resumes on the next run. */
  interrupted: 130,
} as const;

/** An error that ends the command with its exit code and message. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly code: string;

  constructor(message: string, exitCode: number, code = 'cli_error') {
    super(message);
    this.exitCode = exitCode;
    this.code = code;
  }
}
