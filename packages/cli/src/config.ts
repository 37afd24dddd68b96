import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { CliError, EXIT } from './exit-codes.ts';

export const DEFAULT_API_URL = 'http://localhost:8080';

/** What `tributary login` stores. */
export interface Credentials {
  apiUrl: string;
  token: string;
  /** `pat` (a personal access token) or `oauth` (an access token from the authorization server). */
  kind: 'pat' | 'oauth';
  refreshToken?: string;
  /** ISO time the OAuth access token expires. */
  expiresAt?: string;
  /** The OAuth client registered for this CLI. */
  clientId?: string;
  email?: string;
}

/** `$XDG_CONFIG_HOME/tributary`, else `~/.config/tributary`. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(homedir(), '.config');
  return path.join(base, 'tributary');
}

export const credentialsPath = (env: NodeJS.ProcessEnv = process.env) =>
  path.join(configDir(env), 'credentials.json');

/** Reads a JSON file of the config directory; undefined when it does not exist. */
export function readJson<T>(file: string): T | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, EXIT.usage);
  }
}

/** Writes a JSON file readable by its owner only (the directory 700, the file 600). */
export function writePrivateJson(file: string, value: unknown): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

export const readCredentials = () => readJson<Credentials>(credentialsPath());
export const saveCredentials = (credentials: Credentials) => writePrivateJson(credentialsPath(), credentials);
export const removeCredentials = () => rmSync(credentialsPath(), { force: true });

/** The service to talk to: `--api-url`, `TRIBUTARY_API_URL`, the stored credentials', the default. */
export function resolveApiUrl(flag: string | undefined): string {
  return flag || process.env.TRIBUTARY_API_URL || readCredentials()?.apiUrl || DEFAULT_API_URL;
}

/** The token to send: `TRIBUTARY_TOKEN`, else the stored one; none means not logged in. */
export function resolveToken(): string {
  const token = process.env.TRIBUTARY_TOKEN || readCredentials()?.token;
  if (!token)
    throw new CliError(
      'not logged in: run `tributary login` (or set TRIBUTARY_TOKEN)',
      EXIT.notLoggedIn,
      'not_logged_in',
    );
  return token;
}
