import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Response, Router } from 'express';
import type { PreparedOperation } from '../../schema/execute.ts';
import type { AppServices } from '../../schema/services.ts';
import { MAX_CHUNK_BYTES, MULTIPART_MAX_BYTES } from '../../schema/uploads/limits.ts';
import { sendError } from '../rest/errors.ts';
import { routeHandler } from '../route-handler.ts';
import { type Principal, runOrAnswer } from '../run-operation.ts';
import { jsonBody } from '../transport-errors.ts';
import { bearerCaller, uploadCaller } from './caller.ts';
import { receiveChunkBody } from './chunk-body.ts';
import { readMultipart } from './multipart.ts';
import { type FileOperations, fileOperations } from './operations.ts';

type Variables = Record<string, unknown>;

/**
 * The byte-stream side of uploads under /api/mcp/upload: bytes go to scratch disk here, then the
 * GraphQL mutation records or ingests them (the one exception to "everything through GraphQL").
 */
export function createUploadRoutes(app: AppServices, ops: FileOperations = fileOperations()): Router {
  const router = Router();
  // The agent's HTTP surface: its operations run on that channel.
  const run = (res: Response, operation: PreparedOperation, principal: Principal, variables: Variables) =>
    runOrAnswer(app, res, operation, principal, variables, 'agent_http');
  // Bytes per request: base64 JSON chunks need a third more than the chunk.
  const json = jsonBody({ limit: Math.ceil((MAX_CHUNK_BYTES * 4) / 3) + 64 * 1024 });

  router.post(
    '/',
    routeHandler(async (req, res) => {
      const principal = await bearerCaller(app, req);
      const incomingId = randomUUID();
      const target = app.scratch.incomingPath(principal.accountId, incomingId);
      const { fields, file } = await readMultipart(req, 'file', target, MULTIPART_MAX_BYTES);
      if (!file) {
        sendError(res, {
          type: 'invalid_request_error',
          code: 'missing_file',
          message: 'The form has no `file` part.',
          details: [{ path: 'file', message: 'missing' }],
        });
        return;
      }
      const data = await run(res, ops.storeIncoming, principal, {
        incomingId,
        type: fields.type ?? '',
        fileName: file.fileName || fields.fileName || 'upload',
      }).finally(() => rm(target, { force: true }));
      if (!data) return;
      const stored = data.storeIncomingFile as Record<string, unknown>;
      res.status(201).json({ success: true, ...stored });
    }),
  );

  router.post(
    '/chunk',
    (req, res, next) =>
      (req.get('content-type') ?? '').startsWith('application/json') ? json(req, res, next) : next(),
    routeHandler(async (req, res) => {
      const principal = await uploadCaller(app, req);
      const tempPath = await app.scratch.newPath('chunk');
      try {
        const chunk = await receiveChunkBody(req, tempPath, MAX_CHUNK_BYTES);
        const session = await run(res, ops.session, principal, { sessionId: chunk.sessionId });
        if (!session) return;
        const sessionId = (session.uploadSession as { sessionId: string }).sessionId;
        const target = app.scratch.chunkPath(sessionId, chunk.chunkIndex);
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tempPath, target);
        const data = await run(res, ops.recordChunk, principal, {
          sessionId,
          chunkIndex: chunk.chunkIndex,
        });
        if (!data) return;
        res.json({ success: true, chunkIndex: chunk.chunkIndex, ...(data.recordUploadChunk as object) });
      } finally {
        await rm(tempPath, { force: true });
      }
    }),
  );

  router.post(
    '/complete',
    json,
    routeHandler(async (req, res) => {
      const principal = await uploadCaller(app, req);
      const body = (req.body ?? {}) as Record<string, unknown>;
      const data = await run(res, ops.complete, principal, {
        sessionId: String(body.sessionId ?? ''),
        fileName: typeof body.fileName === 'string' ? body.fileName : null,
        fileType: typeof body.fileType === 'string' ? body.fileType : null,
        type: typeof body.type === 'string' ? body.type : null,
      });
      if (!data) return;
      res.json({ success: true, ...(data.completeUpload as object) });
    }),
  );

  router.get(
    '/status',
    routeHandler(async (req, res) => {
      const principal = await uploadCaller(app, req);
      const data = await run(res, ops.session, principal, {
        sessionId: String(req.query.sessionId ?? ''),
      });
      if (data) res.json(data.uploadSession);
    }),
  );

  return router;
}
