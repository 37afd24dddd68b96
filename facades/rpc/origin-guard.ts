import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../src/platform/config.ts';
import { JSONRPC_SERVER_ERROR } from './errors.ts';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);
const MAX_REMEMBERED_VERDICTS = 1_000;

/** `host[:port]` with loopback names folded together (localhost, 127.0.0.1 and [::1] are one host). */
function canonicalHost(hostname: string, port: string): string {
  const name = hostname.toLowerCase();
  return `${LOOPBACK_NAMES.has(name) ? 'loopback' : name}:${port}`;
}

function hostOfUrl(url: URL): string {
  return canonicalHost(url.hostname, url.port || (url.protocol === 'https:' ? '443' : '80'));
}

function parseHostHeader(value: string, defaultPort: string): string | null {
  if (!URL.canParse(`http://${value}`)) return null;
  const url = new URL(`http://${value}`);
  return canonicalHost(url.hostname, url.port || defaultPort);
}

/**
 * Whether a `Host` header names PUBLIC_URL or an origin of MCP_ALLOWED_ORIGINS (loopback names count as
 * one host, the port must match): what a page that rebinds its own name to this server cannot send.
 */
export function allowedHost(config: Pick<AppConfig, 'PUBLIC_URL' | 'MCP_ALLOWED_ORIGINS'>) {
  const publicUrl = new URL(config.PUBLIC_URL);
  const allowed = [publicUrl, ...config.MCP_ALLOWED_ORIGINS.map((origin) => new URL(origin))];
  const hosts = new Set(allowed.map(hostOfUrl));
  const defaultPort = publicUrl.protocol === 'https:' ? '443' : '80';
  return (host: string): boolean => {
    const canonical = parseHostHeader(host, defaultPort);
    return canonical !== null && hosts.has(canonical);
  };
}

/**
 * DNS-rebinding protection for /api/mcp: a web page that makes evil.example resolve to this server
 * sends `Host: evil.example` and `Origin: http://evil.example`. Both must name PUBLIC_URL (loopback
 * names count as one) or an origin of MCP_ALLOWED_ORIGINS; a request without Origin (an agent, not a
 * browser) is checked on Host alone. Refused: 403 with a JSON-RPC error, before anything is read.
 */
export function originGuard(config: Pick<AppConfig, 'PUBLIC_URL' | 'MCP_ALLOWED_ORIGINS'>) {
  const publicUrl = new URL(config.PUBLIC_URL);
  const allowed = [publicUrl, ...config.MCP_ALLOWED_ORIGINS.map((origin) => new URL(origin))];
  const origins = new Set(allowed.map((url) => `${url.protocol}//${hostOfUrl(url)}`));
  const hostAllowed = allowedHost(config);

  const refusal = (origin: string | undefined, host: string | undefined): string | null => {
    if (origin !== undefined) {
      const parsed = URL.canParse(origin) ? new URL(origin) : null;
      if (!parsed || !origins.has(`${parsed.protocol}//${hostOfUrl(parsed)}`)) return `Origin ${origin}`;
    }
    if (host && !hostAllowed(host)) return `Host ${host}`;
    return null;
  };
  // The verdict per (Origin, Host) pair, so that an agent's every call does not parse the same URLs
  // again; bounded, since both headers are the client's to choose.
  const verdicts = new Map<string, string | null>();

  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.get('origin');
    const host = req.host;
    // An absent Origin and an empty one are told apart (the empty one is refused); no header holds \n.
    const key = `${origin === undefined ? '-' : `+${origin}`}\n${host ?? ''}`;
    let refused = verdicts.get(key);
    if (refused === undefined) {
      refused = refusal(origin, host);
      if (verdicts.size >= MAX_REMEMBERED_VERDICTS) verdicts.clear();
      verdicts.set(key, refused);
    }
    if (!refused) {
      next();
      return;
    }
    res.status(403).json({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: JSONRPC_SERVER_ERROR,
        message: `${refused} is not allowed here (DNS-rebinding protection); allowed: ${[...origins].join(', ').replaceAll('loopback', 'localhost')}.`,
        data: { type: 'permission_error', code: 'origin_not_allowed' },
      },
    });
  };
}
