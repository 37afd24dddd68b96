import { byId } from './dom.ts';

/**
 * What the server hands a page's script, in the shell's `<script type="application/json"
 * id="dashboard-boot">` (data, never run): the session's token for the API and the page's own facts.
 */
export interface Boot {
  /** The session's dashboard token (`svc:mcp`, expires with the session, revoked at sign-out). */
  token: string;
  tokenExpiresAt: string;
  /** Where GraphQL is, over HTTP and WebSocket: `/graphql` of this origin. */
  graphqlPath: string;
  /** The page's key (`credits`, …) and its URL's parameters (`id` of `/dashboard/releases/:id`). */
  page: string;
  params: Record<string, string>;
}

export function readBoot(): Boot {
  return JSON.parse(byId('dashboard-boot').textContent ?? '') as Boot;
}
