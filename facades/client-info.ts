import type { Request } from 'express';
import type { ClientInfo } from '../schema/context.ts';

/** The caller as an HTTP request shows it (`req.ip` believes X-Forwarded-For only from TRUST_PROXY's proxies). */
export function clientInfo(req: Request): ClientInfo {
  return {
    ip: req.ip ?? 'unknown',
    origin: req.get('origin') ?? null,
    referer: req.get('referer') ?? null,
  };
}
