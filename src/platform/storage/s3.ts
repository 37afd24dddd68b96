import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { pipeline, Readable, Transform } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { notFound } from '../errors.ts';
import { contentDisposition } from './content-disposition.ts';
import { assertValidContentType, assertValidStorageKey } from './keys.ts';
import type { ObjectStorage, StorageKey, StoredObjectInfo } from './object-storage.ts';

/** S3 refuses presigned URLs that live longer than a week. */
const MAX_PRESIGN_SECONDS = 7 * 86_400;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2, s3rver…); AWS itself needs none. */
  endpoint?: string;
  /** Both or neither; without them the SDK's default credential chain applies. */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Multipart part size (lib-storage minimum and default: 5 MiB). */
  partSizeBytes?: number;
  /** Parts uploaded in parallel (default 4); memory use is about partSize × queueSize. */
  queueSize?: number;
  /** Clock in epoch milliseconds, used as the presigning date (tests). */
  now?: () => number;
}

export interface S3Storage extends ObjectStorage {
  readonly driver: 's3';
  readonly bucket: string;
  readonly client: S3Client;
  /** Releases the client's sockets. */
  close(): void;
}

function isMissingObject(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotFound' || error.name === 'NoSuchKey');
}

/**
 * Objects in one S3 bucket. Uploads stream through lib-storage's `Upload` (one PutObject below the part
 * size, multipart above it); a failed upload is aborted by lib-storage and never completed, so no object
 * appears and a replaced object stays as it was. Checksums are only sent where S3 requires them: many
 * S3-compatible services do not understand the SDK's default `aws-chunked` CRC32 trailers.
 */
export function createS3Storage(options: S3StorageOptions): S3Storage {
  const { bucket, accessKeyId, secretAccessKey } = options;
  if (Boolean(accessKeyId) !== Boolean(secretAccessKey)) {
    throw new Error('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together.');
  }
  const config: S3ClientConfig = {
    region: options.region,
    forcePathStyle: options.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (options.endpoint) config.endpoint = options.endpoint;
  if (accessKeyId && secretAccessKey) config.credentials = { accessKeyId, secretAccessKey };
  const client = new S3Client(config);
  const now = options.now ?? Date.now;

  async function upload(
    key: StorageKey,
    body: Readable | Buffer,
    contentType: string,
    contentLength?: number,
  ): Promise<void> {
    const upload = new Upload({
      client,
      params: {
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentType: contentType,
        ...(contentLength === undefined ? {} : { ContentLength: contentLength }),
      },
      leavePartsOnError: false,
      ...(options.partSizeBytes ? { partSize: options.partSizeBytes } : {}),
      ...(options.queueSize ? { queueSize: options.queueSize } : {}),
    });
    await upload.done();
  }

  /** Uploads a stream, counting its bytes; the caller's stream error wins over the SDK's. */
  async function putStream(
    key: StorageKey,
    body: Readable,
    contentType: string,
    contentLength?: number,
  ): Promise<StoredObjectInfo> {
    let size = 0;
    let sourceError: unknown;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        size += chunk.length;
        callback(null, chunk);
      },
    });
    body.once('error', (error) => {
      sourceError ??= error;
    });
    pipeline(body, counter, (error) => {
      if (error) sourceError ??= error;
    });
    try {
      await upload(key, counter, contentType, contentLength);
    } catch (error) {
      // Stop reading the caller's stream (the pipeline destroys it) and report the first cause.
      counter.destroy();
      throw sourceError ?? error;
    }
    return { size, contentType };
  }

  return {
    driver: 's3',
    bucket,
    client,

    close() {
      client.destroy();
    },

    async put(key, body, { contentType }): Promise<StoredObjectInfo> {
      assertValidStorageKey(key);
      assertValidContentType(contentType);
      if (Buffer.isBuffer(body)) {
        await upload(key, body, contentType);
        return { size: body.length, contentType };
      }
      return putStream(key, body, contentType);
    },

    async putFile(key, filePath, { contentType }): Promise<StoredObjectInfo> {
      assertValidStorageKey(key);
      assertValidContentType(contentType);
      const source = await stat(filePath);
      if (!source.isFile()) throw new Error(`Not a regular file: ${filePath}`);
      return putStream(key, createReadStream(filePath), contentType, source.size);
    },

    async head(key): Promise<StoredObjectInfo | null> {
      assertValidStorageKey(key);
      try {
        const out = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        return { size: out.ContentLength ?? 0, contentType: out.ContentType ?? DEFAULT_CONTENT_TYPE };
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw error;
      }
    },

    async get(key): Promise<Readable> {
      assertValidStorageKey(key);
      let body: unknown;
      try {
        body = (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }))).Body;
      } catch (error) {
        if (isMissingObject(error)) throw notFound('File not found.', 'file_not_found');
        throw error;
      }
      if (!(body instanceof Readable)) throw new Error(`S3 returned no readable body for ${key}`);
      return body;
    },

    async delete(key): Promise<void> {
      assertValidStorageKey(key);
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    },

    async signedDownloadUrl(key, { expiresInSeconds, fileName, contentType }): Promise<string> {
      assertValidStorageKey(key);
      if (
        !Number.isFinite(expiresInSeconds) ||
        expiresInSeconds <= 0 ||
        expiresInSeconds > MAX_PRESIGN_SECONDS
      ) {
        throw new RangeError(
          `expiresInSeconds must be in (0, ${MAX_PRESIGN_SECONDS}], got ${expiresInSeconds}`,
        );
      }
      if (contentType) assertValidContentType(contentType);
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: key,
        ...(fileName ? { ResponseContentDisposition: contentDisposition(fileName) } : {}),
        ...(contentType ? { ResponseContentType: contentType } : {}),
      });
      return getSignedUrl(client, command, {
        expiresIn: Math.ceil(expiresInSeconds),
        signingDate: new Date(now()),
      });
    },
  };
}
