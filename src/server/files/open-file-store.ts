import type { Config } from '../config';
import { diskFileStore, type FileStore } from './file-store';
import { s3FileStore } from './s3-file-store';

/** The file store CSAI_STORAGE chooses: local disk (default) or the S3_* bucket. */
export function openFileStore(config: Pick<Config, 'CSAI_STORAGE' | 'S3_ENDPOINT' | 'S3_BUCKET' | 'S3_REGION' | 'S3_ACCESS_KEY_ID' | 'S3_SECRET_ACCESS_KEY' | 'S3_FORCE_PATH_STYLE' | 'dataDir'>): FileStore {
  if (config.CSAI_STORAGE !== 's3') return diskFileStore(config.dataDir);
  if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required when CSAI_STORAGE=s3');
  return s3FileStore(
    {
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      ...(config.S3_ACCESS_KEY_ID ? { accessKeyId: config.S3_ACCESS_KEY_ID } : {}),
      ...(config.S3_SECRET_ACCESS_KEY ? { secretAccessKey: config.S3_SECRET_ACCESS_KEY } : {}),
    },
    config.dataDir,
  );
}
