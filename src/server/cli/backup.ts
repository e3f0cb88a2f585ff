/**
 * `npm run backup -- [--to DIR]` and `npm run restore -- DIR [--force]` on the data folder of
 * CSAI_DATA_DIR (default ./data), and of the PostgreSQL database of DATABASE_URL when set. See
 * src/server/ops/backup.ts for what a backup holds.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config';
import { backup, BackupUsageError, restore } from '../ops/backup';

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === 'backup') {
    const { values } = parseArgs({ args: rest, options: { to: { type: 'string' } } });
    const { dir, manifest: m } = await backup(config.dataDir, path.resolve(values.to ?? 'backups'), config.DATABASE_URL);
    console.log(`backup written: ${dir}\n  ${m.users} users, ${m.documents} documents, ${m.files} files`);
    // With CSAI_STORAGE=s3 the files are in the bucket, not in the data folder: the bucket is backed up by the store.
    if (config.CSAI_STORAGE === 's3') console.warn(`  files are in the bucket ${config.S3_BUCKET ?? ''} and were not copied: back them up with the store's versioning or replication`);
    else if (m.missing_files.length) console.warn(`  ${m.missing_files.length} files deleted while the backup ran were not found`);
    return;
  }
  if (command === 'restore') {
    const { values, positionals } = parseArgs({ args: rest, options: { force: { type: 'boolean' } }, allowPositionals: true });
    if (positionals.length !== 1) throw new BackupUsageError('restore <backup folder> [--force]');
    const m = await restore(path.resolve(positionals[0]!), config.dataDir, values.force ?? false, config.DATABASE_URL);
    console.log(`restored into ${config.dataDir}: ${m.users} users, ${m.documents} documents, ${m.files} files (backup of ${m.created_at})`);
    return;
  }
  throw new BackupUsageError('backup [--to DIR] | restore <backup folder> [--force]');
}

main(process.argv.slice(2)).catch((err: unknown) => {
  console.error(err instanceof BackupUsageError ? `error: ${err.message}` : err);
  process.exit(err instanceof BackupUsageError ? 2 : 1);
});
