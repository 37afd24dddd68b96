import type { MediaWarning, StoredFile } from '../../src/domains/uploads/index.ts';
import {
  FILE_ORIGINS,
  FILE_STORES,
  findOwnedFile,
  StoredFile as StoredFileEntity,
  signedDownload,
  UPLOAD_TYPES,
} from '../../src/domains/uploads/index.ts';
import { fileUrlFor } from '../../src/platform/storage/index.ts';
import { builder, MCP } from '../builder.ts';
import { requirePrincipal } from '../context.ts';
import { enumFromList } from '../enums.ts';
import { uploadDeps } from './deps.ts';

export const UploadTypeEnum = enumFromList('UploadType', UPLOAD_TYPES, {
  description: 'What a file is for; REST and the agent interface write `coverArt` and `audio`.',
  valueDescriptions: { coverArt: 'Cover art, stored as a 3000×3000 PNG.', audio: 'Audio, stored as FLAC.' },
});

const FileStoreEnum = enumFromList('FileStore', FILE_STORES, { description: 'Where a file is kept.' });
const FileOriginEnum = enumFromList('FileOrigin', FILE_ORIGINS, {
  description: 'How a file arrived: inline base64, a URL import, chunks, a multipart form, or generated.',
});

const MediaWarningRef = builder.objectRef<MediaWarning>('MediaWarning').implement({
  description: 'Something about a file worth knowing; it was stored all the same.',
  fields: (t) => ({ code: t.exposeString('code'), message: t.exposeString('message') }),
});

type Facts = Record<string, unknown>;
const factNumber = (facts: Facts, key: string) =>
  typeof facts[key] === 'number' ? (facts[key] as number) : null;
const factString = (facts: Facts, key: string) =>
  typeof facts[key] === 'string' ? (facts[key] as string) : null;

const AudioFactsRef = builder.objectRef<Facts>('AudioFacts').implement({
  description: 'Facts of an audio stream.',
  fields: (t) => ({
    durationSeconds: t.float({ nullable: true, resolve: (f) => factNumber(f, 'durationSeconds') }),
    sampleRate: t.int({ nullable: true, resolve: (f) => factNumber(f, 'sampleRate') }),
    bitDepth: t.int({
      nullable: true,
      description: 'Bits per sample of a lossless stream; null for lossy codecs.',
      resolve: (f) => factNumber(f, 'bitDepth'),
    }),
    channels: t.int({ nullable: true, resolve: (f) => factNumber(f, 'channels') }),
    codec: t.string({ nullable: true, resolve: (f) => factString(f, 'codec') }),
    container: t.string({ nullable: true, resolve: (f) => factString(f, 'container') }),
    lossless: t.boolean({
      nullable: true,
      resolve: (f) => (typeof f.lossless === 'boolean' ? f.lossless : null),
    }),
  }),
});

const MediaFactsRef = builder.objectRef<Facts>('MediaFacts').implement({
  description:
    'What was measured of a file. Cover art: width, height, format and the source size. Audio: the ' +
    'stored stream and, in source, the uploaded one.',
  fields: (t) => ({
    width: t.int({ nullable: true, resolve: (f) => factNumber(f, 'width') }),
    height: t.int({ nullable: true, resolve: (f) => factNumber(f, 'height') }),
    format: t.string({ nullable: true, resolve: (f) => factString(f, 'format') }),
    sourceWidth: t.int({ nullable: true, resolve: (f) => factNumber(f, 'sourceWidth') }),
    sourceHeight: t.int({ nullable: true, resolve: (f) => factNumber(f, 'sourceHeight') }),
    audio: t.field({
      type: AudioFactsRef,
      nullable: true,
      description: 'The stored audio stream (audio files).',
      resolve: (f) => (typeof f.sampleRate === 'number' ? f : null),
    }),
    source: t.field({
      type: AudioFactsRef,
      nullable: true,
      description: 'The uploaded audio stream, before normalisation (audio files).',
      resolve: (f) => (typeof f.source === 'object' && f.source !== null ? (f.source as Facts) : null),
    }),
  }),
});

export const FileRef = builder.objectRef<StoredFile>('File').implement({
  description: 'A stored, normalised file of the caller, addressed by its fileUrl.',
  fields: (t) => ({
    id: t.exposeID('id'),
    fileUrl: t.string({ resolve: (file) => fileUrlFor(file.store, file.account.id, file.name) }),
    fileName: t.exposeString('name'),
    type: t.field({
      type: UploadTypeEnum,
      resolve: (file) => (file.store === 'cover-art' ? 'coverArt' : 'audio'),
    }),
    store: t.expose('store', { type: FileStoreEnum }),
    userId: t.id({ resolve: (file) => file.account.id }),
    size: t.exposeFloat('size', { description: 'Bytes stored.' }),
    contentType: t.exposeString('contentType'),
    sha256: t.exposeString('sha256', { description: 'SHA-256 of the stored (normalised) bytes.' }),
    sourceSha256: t.exposeString('sourceSha256', { description: 'SHA-256 of the bytes received.' }),
    sourceSize: t.exposeFloat('sourceSize'),
    sourceContentType: t.exposeString('sourceContentType', { nullable: true }),
    origin: t.expose('origin', { type: FileOriginEnum }),
    width: t.int({ nullable: true, resolve: (file) => factNumber(file.media, 'width') }),
    height: t.int({ nullable: true, resolve: (file) => factNumber(file.media, 'height') }),
    durationSeconds: t.float({
      nullable: true,
      resolve: (file) => factNumber(file.media, 'durationSeconds'),
    }),
    sampleRate: t.int({ nullable: true, resolve: (file) => factNumber(file.media, 'sampleRate') }),
    bitDepth: t.int({ nullable: true, resolve: (file) => factNumber(file.media, 'bitDepth') }),
    channels: t.int({ nullable: true, resolve: (file) => factNumber(file.media, 'channels') }),
    codec: t.string({
      nullable: true,
      resolve: (file) => factString(file.media, 'codec'),
    }),
    media: t.field({
      type: MediaFactsRef,
      description: 'All media facts, including those of the source.',
      resolve: (file) => file.media,
    }),
    warnings: t.field({ type: [MediaWarningRef], resolve: (file) => file.warnings }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

interface FileDownload {
  url: string;
  expiresAt: Date;
}

export const FileDownloadRef = builder.objectRef<FileDownload>('FileDownload').implement({
  description: 'A short-lived signed link to a file.',
  fields: (t) => ({
    url: t.exposeString('url', { description: 'A signed URL that serves the bytes without a token.' }),
    expiresAt: t.expose('expiresAt', { type: 'DateTime' }),
  }),
});

builder.queryField('file', (t) =>
  t.field({
    type: FileRef,
    description: 'One of your files, by its fileUrl.',
    authScopes: MCP,
    args: { fileUrl: t.arg.string({ required: true }) },
    resolve: (_root, args, context) =>
      findOwnedFile(context.em, requirePrincipal(context).accountId, args.fileUrl),
  }),
);

builder.queryField('files', (t) =>
  t.field({
    type: [FileRef],
    authScopes: MCP,
    description: "The caller's files, newest first.",
    args: {
      type: t.arg({ type: UploadTypeEnum, required: false }),
      limit: t.arg.int({ required: false, defaultValue: 50, validate: { min: 1, max: 200 } }),
    },
    resolve: (_root, args, context) =>
      context.em.find(
        StoredFileEntity,
        {
          account: requirePrincipal(context).accountId,
          ...(args.type
            ? { store: args.type === 'coverArt' ? ('cover-art' as const) : ('audio' as const) }
            : {}),
        },
        { orderBy: { createdAt: 'desc' }, limit: args.limit ?? 50 },
      ),
  }),
);

builder.queryField('fileDownload', (t) =>
  t.field({
    type: FileDownloadRef,
    authScopes: MCP,
    description: "A short-lived (about one hour) signed download URL for one of the caller's files.",
    args: { fileUrl: t.arg.string({ required: true }) },
    resolve: (_root, args, context) =>
      signedDownload(uploadDeps(context), requirePrincipal(context).accountId, args.fileUrl),
  }),
);
