import { isIPv4, isIPv6 } from 'node:net';
import { invalidRequest } from '../../platform/errors.ts';

/** Where a store's SFTP server is, from `sftp://<user>@<host>:<port>/<root>`. */
export interface SftpLocation {
  username: string;
  host: string;
  port: number;
  /** Absolute directory on the server; `/` when the URL names none. */
  root: string;
}

const DEFAULT_PORT = 22;
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;
const USER_NAME = /^[A-Za-z0-9._@+-]{1,100}$/;
const EXAMPLE = 'sftp://<user>@<host>:<port>/<root>, e.g. sftp://tributary@sftp.store.example:22/incoming';

const refuse = (problem: string) =>
  invalidRequest(
    `--sftp ${problem}: expected ${EXAMPLE}.`,
    [{ path: 'sftp', message: problem }],
    'invalid_sftp_url',
  );

/** Parses the SFTP URL strictly: a user, a host, an optional port (22), an absolute root; nothing else. */
export function parseSftpUrl(value: string): SftpLocation {
  const text = value.trim();
  if (!/^sftp:\/\//.test(text)) throw refuse('must start with sftp://');
  if (/[?#]/.test(text)) throw refuse('must have no query or fragment');
  if (!URL.canParse(text)) throw refuse('is not a URL');
  const url = new URL(text);
  if (url.password) throw refuse('must not hold a password (give it with --password-env)');
  if (!url.username) throw refuse('must name the user (sftp://<user>@<host>…)');
  const username = decodeURIComponent(url.username);
  if (!USER_NAME.test(username))
    throw refuse(`has a user name "${username}" that is not 1 to 100 letters, digits or . _ @ + -`);
  const host = hostOf(url.hostname);
  if (!host) throw refuse(`has a host "${url.hostname}" that is neither a host name nor an IP address`);
  const port = url.port === '' ? DEFAULT_PORT : Number(url.port);
  if (!Number.isInteger(port) || port < 1 || port > 65_535) throw refuse('has a port outside 1..65535');
  // From the text as given: the URL parser would resolve "." and ".." segments away.
  return { username, host, port, root: rootOf(text.slice('sftp://'.length).replace(/^[^/]*/, '')) };
}

function hostOf(hostname: string): string | null {
  const host = hostname.toLowerCase();
  if (host.startsWith('[') && host.endsWith(']')) return isIPv6(host.slice(1, -1)) ? host.slice(1, -1) : null;
  if (isIPv4(host) || HOST_NAME.test(host)) return host;
  return null;
}

function rootOf(pathname: string): string {
  let path: string;
  try {
    path = decodeURIComponent(pathname || '/');
  } catch {
    throw refuse('has a root that is not valid percent-encoding');
  }
  const segments = path.split('/').slice(1);
  if (segments.at(-1) === '') segments.pop();
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    throw refuse('has a root with an empty, "." or ".." segment');
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
  if (segments.some((segment) => /[\0-\x1f\x7f\\]/.test(segment))) {
    throw refuse('has a root with a control character or a backslash');
  }
  return `/${segments.join('/')}`;
}

/** The URL of a location, as `store:connect --sftp` takes it. */
export function formatSftpUrl(location: SftpLocation): string {
  const host = location.host.includes(':') ? `[${location.host}]` : location.host;
  const root = location.root.split('/').map(encodeURIComponent).join('/');
  return `sftp://${encodeURIComponent(location.username)}@${host}:${location.port}${root}`;
}
