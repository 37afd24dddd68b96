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
 * the signed URL is `/api/files/signed/<key>?expires&sig`, served here after an HMAC check. Cover
 * thumbnails are served here whatever the driver: `/api/files/thumbnails/<size>/<userId>/<name>`.
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
      const name = optional(req.query.name);
      await sendObject(app, res, key, info, {
        'Cache-Control': 'private, max-age=300',
        ...(name ? { 'Content-Disposition': contentDisposition(name) } : {}),
      });
    }),
  );

  // Cover thumbnails (Release.coverThumbnail): the signature is checked, and the image made on first
  // request, behind the operation; the bytes at one URL never change, so a browser may keep them.
  router.get(
    '/thumbnails/:size/:userId/:name',
    routeHandler(async (req: Request, res: Response) => {
      const data = await runOrAnswer(app, res, ops.thumbnail, null, {
        size: String(req.params.size),
        ownerId: String(req.params.userId),
        name: String(req.params.name),
        expires: String(req.query.expires ?? ''),
        sig: String(req.query.sig ?? ''),
      });
      if (!data) return;
      const thumbnail = data.thumbnail as { storageKey: string; contentType: string; size: number };
      await sendObject(app, res, thumbnail.storageKey, thumbnail, {
        'Cache-Control': 'private, max-age=31536000, immutable',
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

/** Sends a stored object's bytes with its type, length and `headers`, once the storage has it open. */
async function sendObject(
  app: AppServices,
  res: Response,
  key: string,
  info: { contentType: string; size: number },
  headers: Record<string, string>,
): Promise<void> {
  const body = await app.storage.get(key);
  // A client that left while the object was being opened: pipeline would refuse the closed response
  // (throwing) and the open file would wait for the garbage collector to close it.
  if (res.destroyed) {
    body.destroy();
    return;
  }
  res.setHeader('Content-Type', info.contentType);
  res.setHeader('Content-Length', String(info.size));
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  // Both ends handled: a storage error cuts the response; a client that leaves releases the file.
  pipeline(body, res, (error) => {
    const gone = (error as { code?: string } | undefined)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
    if (error && !gone) app.logger.warn({ err: error, requestId: res.locals.requestId }, 'download stream');
  });
}
