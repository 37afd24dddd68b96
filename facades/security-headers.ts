import { createHash } from 'node:crypto';

/**
 * On every answer (API, pages, downloads, errors): a browser takes the Content-Type as given and never
 * guesses, so an uploaded file or a JSON text can never run as HTML or script.
 */
export const NOSNIFF = { name: 'X-Content-Type-Options', value: 'nosniff' } as const;

/**
 * Our pages load nothing from elsewhere: one stylesheet of ours, no scripts, no frames, and nobody
 * frames them. Forms may post anywhere (the authorization server's form_post answers post to a
 * client's redirect URI).
 */
export const PAGE_POLICY =
  "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'";

/**
 * The dashboard's pages run scripts of ours, from our origin only (no inline script: the boot data is a
 * `<script type="application/json">` block, which no policy runs), and talk to this origin only:
 * `connect-src 'self'` covers /graphql over fetch and over WebSocket (ws:, wss: of the same host).
 * Forms post to us only (sign-out).
 */
export const DASHBOARD_POLICY =
  "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

/**
 * The headers every HTML page of ours carries: its Content-Security-Policy, framing refused in the
 * older header too (`DENY`, or `SAMEORIGIN` for a page framed by our own), and no Referer (page URLs
 * carry interaction ids and checkout ids).
 */
export function pageHeaders(
  policy: string = PAGE_POLICY,
  framing: 'DENY' | 'SAMEORIGIN' = 'DENY',
): Record<string, string> {
  return {
    'Content-Security-Policy': policy,
    'X-Frame-Options': framing,
    'Referrer-Policy': 'no-referrer',
  };
}

/** `'sha256-…'` sources for each inline `<script>` of a page, for a policy that runs exactly those. */
export function inlineScriptHashes(page: string): string[] {
  const hashes = new Set<string>();
  for (const match of page.matchAll(/<script>([\s\S]*?)<\/script>/g)) {
    hashes.add(
      `'sha256-${createHash('sha256')
        .update(match[1] ?? '')
        .digest('base64')}'`,
    );
  }
  return [...hashes];
}
