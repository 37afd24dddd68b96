import { pipeline } from 'node:stream';
import { type Request, type Response, Router } from 'express';
import type { AppServices } from '../../schema/services.ts';
import { contentDisposition, verifyLocalSignature } from '../../src/platform/storage/index.ts';
import { sendError } from '../rest/errors.ts';
import { routeHandler } from '../route-handler.ts';
import { runOrAnswer } from '../run-operation.ts';
import { bearerCaller } from './caller.ts';
import { type FileOperations, fileOperations } from './operations.ts';

const optional = (value: unknown) => (typeof value === 'string' ? value : undefined);

/**
 * `GET <fileUrl>` with a bearer token → 302 to a signed URL (about an hour). With the local driver,
 * the signed URL is `/api/files/signed/<key>?expires&sig`, served here after an HMAC check.
 */
export function createDownloadRoutes(
  app: AppServices,
  signingSecret: string | null,
  ops: FileOperations = fileOperations(),
): Router {
  const router = Router();

  router.get(
    '/signed/*key',
    routeHandler(async (req: Request, res: Response) => {
      const key = ([] as string[]).concat(req.params.key as string | string[]).join('/');
      const verdict =
        signingSecret === null
          ? 'invalid'
          : verifyLocalSignature(
              {
                key,
                expires: String(req.query.expires ?? ''),
                sig: String(req.query.sig ?? ''),
                name: optional(req.query.name),
                type: optional(req.query.type),
              },
              signingSecret,
              new Date(),
            );
      if (verdict !== 'ok') {
        sendError(res, {
          type: verdict === 'expired' ? 'permission_error' : 'not_found_error',
          code: verdict === 'expired' ? 'signed_url_expired' : 'signed_url_invalid',
          message:
            verdict === 'expired'
              ? 'This download link has expired; ask for a new one.'
              : 'No such download.',
        });
        return;
      }
      const info = await app.storage.head(key);
      if (!info) {
        sendError(res, { type: 'not_found_error', code: 'file_not_found', message: 'No such download.' });
        return;
      }
      res.setHeader('Content-Type', info.contentType);
      res.setHeader('Content-Length', String(info.size));
      res.setHeader('Cache-Control', 'private, max-age=300');
      const name = optional(req.query.name);
      if (name) res.setHeader('Content-Disposition', contentDisposition(name));
      const body = await app.storage.get(key);
      // Both ends handled: a storage error cuts the response; a client that leaves releases the file.
      pipeline(body, res, (error) => {
        const gone = (error as { code?: string } | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
        if (error && !gone)
          app.logger.warn({ err: error, requestId: res.locals.requestId }, 'download stream');
      });
    }),
  );

  router.get(
    '/:store/:userId/:name',
    routeHandler(async (req: Request, res: Response) => {
      const principal = await bearerCaller(app, req);
      const fileUrl = `/api/files/${req.params.store}/${req.params.userId}/${req.params.name}`;
      const data = await runOrAnswer(app, res, ops.download, principal, { fileUrl });
      if (!data) return;
      res.setHeader('Cache-Control', 'no-store');
      res.redirect(302, (data.fileDownload as { url: string }).url);
    }),
  );

  return router;
}
