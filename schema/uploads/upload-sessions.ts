import type { UploadType } from '../../src/domains/uploads/index.ts';
import {
  type CreatedSession,
  completeSession,
  createUploadSession,
  findSession,
  recordChunk,
  SESSION_STATUSES,
  type SessionProgress,
  sessionProgress,
  UPLOAD_HEADER_NAME,
} from '../../src/domains/uploads/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';
import { uploadDeps } from './deps.ts';
import { FileRef, UploadTypeEnum } from './file.ts';

const UploadSessionStatusEnum = enumFromList('UploadSessionStatus', SESSION_STATUSES, {
  description: 'Where a chunked upload session stands.',
});

const CreatedSessionRef = builder
  .objectRef<CreatedSession & { publicUrl: string }>('UploadSessionCreated')
  .implement({
    description: 'Send chunks to chunkEndpoint (any order, any number of times), then call completeEndpoint.',
    fields: (t) => ({
      sessionId: t.id({ resolve: (c) => c.session.id }),
      uploadToken: t.exposeString('uploadToken', { description: 'Scoped to this session; shown once.' }),
      uploadHeaderName: t.string({ resolve: () => UPLOAD_HEADER_NAME }),
      chunkEndpoint: t.string({ resolve: (c) => `${c.publicUrl}/api/mcp/upload/chunk` }),
      completeEndpoint: t.string({ resolve: (c) => `${c.publicUrl}/api/mcp/upload/complete` }),
      statusEndpoint: t.string({
        resolve: (c) => `${c.publicUrl}/api/mcp/upload/status?sessionId=${c.session.id}`,
      }),
      recommendedChunkBytes: t.exposeInt('recommendedChunkBytes'),
      maxChunkBytes: t.exposeInt('maxChunkBytes'),
      fileSize: t.float({ resolve: (c) => c.session.fileSize }),
      expiresAt: t.field({ type: 'DateTime', resolve: (c) => c.session.expiresAt }),
    }),
  });

const ReceivedChunkRef = builder.objectRef<{ index: number; size: number }>('ReceivedChunk').implement({
  description: 'A chunk an upload session holds.',
  fields: (t) => ({ index: t.exposeInt('index'), size: t.exposeInt('size') }),
});

const SessionProgressRef = builder.objectRef<SessionProgress>('UploadSessionProgress').implement({
  description: 'Where a chunked upload stands: the chunks held, and the file once complete.',
  fields: (t) => ({
    sessionId: t.id({ resolve: (p) => p.session.id }),
    type: t.field({ type: UploadTypeEnum, resolve: (p) => p.session.type }),
    status: t.field({ type: UploadSessionStatusEnum, resolve: (p) => p.session.status }),
    fileName: t.string({ resolve: (p) => p.session.fileName }),
    fileSize: t.float({ resolve: (p) => p.session.fileSize }),
    receivedBytes: t.exposeFloat('receivedBytes'),
    receivedChunks: t.field({ type: [ReceivedChunkRef], resolve: (p) => p.receivedChunks }),
    expiresAt: t.field({ type: 'DateTime', resolve: (p) => p.session.expiresAt }),
    file: t.field({ type: FileRef, nullable: true, resolve: (p) => p.session.file ?? null }),
  }),
});

/** Chunk, complete and status also accept the session's scoped upload token. */
const sessionScopes = (sessionId: string) => ({
  $any: { scope: 'svc:mcp' as const, uploadSession: sessionId },
});

builder.mutationField('createUploadSession', (t) =>
  t.field({
    type: CreatedSessionRef,
    description:
      'Opens a chunked upload session for a large file; returns a scoped upload token and the endpoints to use.',
    authScopes: MCP,
    args: {
      type: t.arg({ type: UploadTypeEnum, required: true }),
      fileName: t.arg.string({ required: true, validate: { minLength: 1, maxLength: 255 } }),
      fileSize: t.arg.float({ required: true, validate: { int: true, positive: true } }),
      fileType: t.arg.string({ required: false, validate: { maxLength: 200 } }),
    },
    resolve: async (_root, args, context) => ({
      ...(await createUploadSession(uploadDeps(context), {
        accountId: requirePrincipal(context).accountId,
        type: args.type as UploadType,
        fileName: args.fileName,
        fileSize: args.fileSize,
        fileType: args.fileType ?? null,
      })),
      publicUrl: context.app.config.PUBLIC_URL,
    }),
  }),
);

builder.queryField('uploadSession', (t) =>
  t.field({
    type: SessionProgressRef,
    args: { sessionId: t.arg.id({ required: true }) },
    authScopes: (_root, args) => sessionScopes(args.sessionId),
    description: 'Which chunks the session holds: resume by sending the missing ones.',
    resolve: async (_root, args, context) => {
      const session = await findSession(context.em, requirePrincipal(context).accountId, args.sessionId);
      return sessionProgress(context.em, session);
    },
  }),
);

builder.mutationField('recordUploadChunk', (t) =>
  t.field({
    type: SessionProgressRef,
    args: { sessionId: t.arg.id({ required: true }), chunkIndex: t.arg.int({ required: true }) },
    authScopes: (_root, args) => sessionScopes(args.sessionId),
    description:
      'Records a chunk whose bytes the transport wrote to the session (used by the chunk endpoint).',
    resolve: async (_root, args, context) => {
      const { session } = await recordChunk(uploadDeps(context), {
        accountId: requirePrincipal(context).accountId,
        sessionId: args.sessionId,
        index: args.chunkIndex,
      });
      return sessionProgress(context.em, session);
    },
  }),
);

builder.mutationField('completeUpload', (t) =>
  t.field({
    type: FileRef,
    description: 'Assembles the chunks of an upload session into a stored, normalised file.',
    args: {
      sessionId: t.arg.id({ required: true }),
      fileName: t.arg.string({ required: false, validate: { maxLength: 255 } }),
      fileType: t.arg.string({ required: false }),
      type: t.arg({ type: UploadTypeEnum, required: false }),
    },
    authScopes: (_root, args) => sessionScopes(args.sessionId),
    resolve: (_root, args, context) =>
      completeSession(uploadDeps(context), {
        accountId: requirePrincipal(context).accountId,
        sessionId: args.sessionId,
        fileName: args.fileName ?? null,
        type: (args.type as UploadType | null | undefined) ?? null,
      }),
  }),
);
