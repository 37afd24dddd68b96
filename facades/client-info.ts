import type { Request } from 'express';
import type { ClientInfo } from '../schema/context.ts';

/** The caller as an HTTP request shows it (express's `req.ip` trusts only a loopback proxy). */
export function clientInfo(req: Request): ClientInfo {
  return {
    ip: req.ip ?? 'unknown',
    origin: req.get('origin') ?? null,
    referer: req.get('referer') ?? null,
  };
}
