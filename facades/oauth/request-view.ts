import type { IncomingMessage } from 'node:http';
import type { Request } from 'express';
import type Provider from 'oidc-provider';

/** The few request properties of koa's that this file redefines, with what each reads. */
interface KoaRequestView {
  req: IncomingMessage;
  originalUrl: string;
}

/** The path and query of a request target, also of an absolute-form one (`GET http://host/path`). */
function pathOf(target: string): string {
  if (target.startsWith('/')) return target;
  const parsed = URL.parse(target);
  return parsed ? `${parsed.pathname}${parsed.search}` : '/';
}

/** Express's view of the request (its `trust proxy` rule), or the socket's outside express. */
const expressRequest = (req: IncomingMessage) => ('app' in req ? (req as Request) : undefined);

/**
 * The authorization server's view of where a request came to and from whom, the same as express's:
 *
 * - host, origin and href (every URL oidc-provider builds: the discovery document's endpoints, the
 *   resume URL after sign-in, DPoP's `htu`) come from PUBLIC_URL, never from `Host`,
 *   `X-Forwarded-Host` or an absolute-form request target, all of which the client chooses;
 * - the scheme (`ctx.secure`, which decides whether the Secure cookies may be sent) and the client
 *   address are express's `req.protocol` and `req.ip`, which read `X-Forwarded-Proto`/`-For` only from
 *   a peer TRUST_PROXY names.
 *
 * koa's own `proxy` stays off, so nothing of koa's reads an X-Forwarded-* header.
 */
export function pinRequestView(provider: Provider, publicUrl: string): void {
  const url = new URL(publicUrl);
  provider.proxy = false;
  const address = Symbol('address');
  Object.defineProperties(provider.request, {
    host: { get: () => url.host, configurable: true },
    hostname: { get: () => url.hostname, configurable: true },
    origin: { get: () => url.origin, configurable: true },
    href: {
      get(this: KoaRequestView) {
        return `${url.origin}${pathOf(this.originalUrl ?? '/')}`;
      },
      configurable: true,
    },
    URL: {
      get(this: KoaRequestView & { href: string }) {
        return new URL(this.href);
      },
      configurable: true,
    },
    protocol: {
      get(this: KoaRequestView) {
        const viaExpress = expressRequest(this.req);
        if (viaExpress) return viaExpress.protocol;
        return (this.req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
      },
      configurable: true,
    },
    ips: {
      get(this: KoaRequestView) {
        return expressRequest(this.req)?.ips ?? [];
      },
      configurable: true,
    },
    ip: {
      get(this: KoaRequestView & { [address]?: string }) {
        return this[address] ?? expressRequest(this.req)?.ip ?? this.req.socket.remoteAddress ?? '';
      },
      set(this: KoaRequestView & { [address]?: string }, value: string) {
        this[address] = value;
      },
      configurable: true,
    },
  });
}
