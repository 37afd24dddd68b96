import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { StartError } from './start-error.ts';

const run = promisify(execFile);

export interface SystemUser {
  uid: number;
  gid: number;
}

/**
 * PostgreSQL refuses to run as root: started by root, it runs as the `postgres` system user, created here
 * (with its group) when the machine has none. Not root: null, PostgreSQL runs as the current user.
 */
export async function postgresRunAs(): Promise<SystemUser | null> {
  if (process.getuid?.() !== 0) return null;
  const existing = await lookUp();
  if (existing) return existing;
  try {
    if (!(await succeeds('getent', ['group', 'postgres']))) await run('groupadd', ['--system', 'postgres']);
    await run('useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']);
  } catch (error) {
    throw new StartError(
      `Running as root, the embedded PostgreSQL needs a postgres system user and could not create one (${reason(error)}): create it (useradd --system postgres), start as another user, or set DATABASE_URL to a PostgreSQL server.`,
    );
  }
  const created = await lookUp();
  if (!created)
    throw new StartError('The postgres system user was created but cannot be found: check /etc/passwd.');
  return created;
}

async function lookUp(): Promise<SystemUser | null> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return null;
  }
}

async function succeeds(command: string, args: string[]): Promise<boolean> {
  try {
    await run(command, args);
    return true;
  } catch {
    return false;
  }
}

function reason(error: unknown): string {
  const failure = error as NodeJS.ErrnoException & { stderr?: string };
  const said = failure.stderr?.trim().split('\n').pop();
  return said || failure.code || failure.message;
}
