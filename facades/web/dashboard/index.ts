import { type Request, type Response, Router } from 'express';
import type { AppServices } from '../../../schema/services.ts';
import { dashboardTokenOf } from '../../../schema/web/sessions.ts';
import { isUuid } from '../../../src/platform/ids.ts';
import { DASHBOARD_POLICY, pageHeaders } from '../../security-headers.ts';
import { formBody } from '../forms.ts';
import { html, type SafeHtml } from '../pages/html.ts';
import { signedIn, signInUrl, type WebSessions } from '../session/index.ts';
import { ASSETS_PATH, type DashboardAssets, dashboardAssets, sendAsset } from './assets.ts';
import { DASHBOARD_HOME, DASHBOARD_PAGES, type DashboardPage, type NavKey } from './pages.ts';
import { dashboardShell } from './shell.ts';

const NOT_FOUND = html`<p id="not-found">This page does not exist, or it is not yours.</p>
<p><a href="${DASHBOARD_HOME}">Dashboard</a></p>`;

/**
 * The artist's dashboard (docs/dashboard.md): server-rendered shells under /dashboard, behind the web
 * pages' session, whose scripts call the public GraphQL API with the session's dashboard token; and the
 * scripts and stylesheet they load, under /dashboard/assets (public, immutable).
 */
export function createDashboardRoutes(
  app: AppServices,
  sessions: WebSessions,
  pages: readonly DashboardPage[] = DASHBOARD_PAGES,
): Router {
  const router = Router();
  const entries = pages.flatMap((page) => (page.entry ? [page.entry] : []));
  const assets = () => dashboardAssets(entries, app.config.NODE_ENV !== 'production');

  router.get(`${ASSETS_PATH}/:file`, async (req: Request, res: Response) => {
    sendAsset(req, res, await assets());
  });

  router.use('/dashboard', sessions.requireSession);
  router.get('/dashboard', (_req, res) => res.redirect(303, DASHBOARD_HOME));
  router.post('/dashboard/sign-out', formBody(), sessions.checkCsrf, sessions.signOut('/dashboard'));

  const send = (
    res: Response,
    built: DashboardAssets,
    status: number,
    view: { title: string; nav: NavKey | null; message?: SafeHtml },
    script: Parameters<typeof dashboardShell>[0]['script'] = null,
  ) => {
    res.status(status);
    res.set(pageHeaders(DASHBOARD_POLICY));
    // The page carries the session's token: no cache keeps it.
    res.setHeader('Cache-Control', 'no-store');
    res.type('html');
    res.send(dashboardShell({ ...view, csrf: signedIn(res).csrf, stylesheet: built.stylesheet, script }));
  };

  for (const page of pages) {
    router.get(page.path, async (req: Request, res: Response) => {
      const built = await assets();
      const params = Object.fromEntries(
        Object.entries(req.params).map(([name, value]) => [name, String(value)]),
      );
      // An id in the URL that cannot be one: the same "not found" the page shows for another account's.
      if (Object.values(params).some((value) => !isUuid(value))) {
        send(res, built, 404, { title: 'Not found', nav: page.nav, message: NOT_FOUND });
        return;
      }
      const files = page.entry ? built.scripts.get(page.entry) : undefined;
      if (!page.entry || !files) {
        send(res, built, 200, { title: page.title, nav: page.nav });
        return;
      }
      const token = await dashboardTokenOf(app, signedIn(res).sessionId);
      if (!token) {
        res.redirect(303, signInUrl(req.originalUrl)); // the session ended a moment ago
        return;
      }
      send(
        res,
        built,
        200,
        { title: page.title, nav: page.nav },
        {
          files,
          boot: {
            token: token.token,
            tokenExpiresAt: token.expiresAt.toISOString(),
            graphqlPath: '/graphql',
            page: page.entry,
            params,
          },
        },
      );
    });
  }

  router.get('/dashboard/{*rest}', async (_req: Request, res: Response) => {
    send(res, await assets(), 404, { title: 'Not found', nav: null, message: NOT_FOUND });
  });
  return router;
}
