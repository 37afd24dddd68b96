import path from 'node:path';
import type { AppConfig } from '../config.ts';
import { createLocalDiskStorage } from './local-disk.ts';
import type { ObjectStorage } from './object-storage.ts';
import { createS3Storage } from './s3.ts';

export { contentDisposition } from './content-disposition.ts';
export {
  fileUrlFor,
  isValidStorageKey,
  parseFileUrl,
  storageKey,
  storageKeyForFile,
  thumbnailKey,
} from './keys.ts';
export { verifyLocalSignature } from './local-disk.ts';
export type { ObjectStorage } from './object-storage.ts';
export { loadSigningSecret } from './signing-secret.ts';

/** The local driver's objects live here, apart from the rest of DATA_DIR. */
export function localStorageRoot(config: Pick<AppConfig, 'DATA_DIR'>): string {
  return path.resolve(config.DATA_DIR, 'files');
}

export type StorageConfig = Pick<
  AppConfig,
  | 'STORAGE_DRIVER'
  | 'DATA_DIR'
  | 'PUBLIC_URL'
  | 'S3_BUCKET'
  | 'S3_REGION'
  | 'S3_ENDPOINT'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
>;

/**
 * The storage the settings ask for: local disk under `<DATA_DIR>/files` (default) or an S3 bucket.
 * `signingSecret` (from `loadSigningSecret`) signs local download URLs; the S3 driver presigns instead.
 */
export function createStorage(config: StorageConfig, deps: { signingSecret: string }): ObjectStorage {
  if (config.STORAGE_DRIVER === 's3') {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when STORAGE_DRIVER=s3');
    return createS3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
    });
  }
  return createLocalDiskStorage({
    root: localStorageRoot(config),
    publicUrl: config.PUBLIC_URL,
    signingSecret: deps.signingSecret,
  });
}
