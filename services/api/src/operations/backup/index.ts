export {
  backupDatabase,
  BackupRefused,
  type BackupResult,
  choosePgDump,
  defaultBackupFile,
  type PgDumpBinary,
  pgDumpCandidates,
} from './database-backup';
