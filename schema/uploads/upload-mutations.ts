import type { UploadType } from '../../src/domains/uploads/index.ts';
import { importFromUrl, storeIncoming, uploadBase64 } from '../../src/domains/uploads/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { uuidValidation } from '../id-validation.ts';
import { uploadDeps } from './deps.ts';
import { FileRef, UploadTypeEnum } from './file.ts';

const fileName = { minLength: 1, maxLength: 255 };

builder.mutationField('uploadFile', (t) =>
  t.field({
    type: FileRef,
    authScopes: MCP,
    description:
      'Upload a small file as base64 (about 3 MB of binary at most). The content is sniffed, not trusted.',
    args: {
      type: t.arg({ type: UploadTypeEnum, required: true }),
      fileName: t.arg.string({ required: true, validate: fileName }),
      dataBase64: t.arg.string({ required: true }),
      mimeType: t.arg.string({ required: false, description: 'Informative only: the bytes decide.' }),
    },
    resolve: (_root, args, context) =>
      uploadBase64(uploadDeps(context), {
        accountId: requirePrincipal(context).accountId,
        type: args.type as UploadType,
        fileName: args.fileName,
        dataBase64: args.dataBase64,
      }),
  }),
);

builder.mutationField('importFileFromUrl', (t) =>
  t.field({
    type: FileRef,
    authScopes: MCP,
    description: 'Import a file from a public http(s) URL, streamed server-side; no size limit.',
    args: {
      type: t.arg({ type: UploadTypeEnum, required: true }),
      url: t.arg.string({ required: true, validate: { maxLength: 4096 } }),
      fileName: t.arg.string({ required: false, validate: { maxLength: 255 } }),
    },
    resolve: (_root, args, context) =>
      importFromUrl(uploadDeps(context), {
        accountId: requirePrincipal(context).accountId,
        type: args.type as UploadType,
        url: args.url,
        fileName: args.fileName ?? null,
      }),
  }),
);

builder.mutationField('storeIncomingFile', (t) =>
  t.field({
    type: FileRef,
    authScopes: MCP,
    description: "Ingest bytes a transport streamed to the caller's incoming area (multipart uploads).",
    args: {
      incomingId: t.arg.id({ required: true, validate: uuidValidation('incoming file') }),
      type: t.arg({ type: UploadTypeEnum, required: true }),
      fileName: t.arg.string({ required: true, validate: fileName }),
    },
    resolve: (_root, args, context) =>
      storeIncoming(uploadDeps(context), {
        accountId: requirePrincipal(context).accountId,
        incomingId: String(args.incomingId),
        type: args.type as UploadType,
        fileName: args.fileName,
      }),
  }),
);
