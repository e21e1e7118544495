export {
  backupDatabase,
  BackupRefused,
  type BackupResult,
  choosePgDump,
  defaultBackupFile,
  type PgDumpBinary,
  pgDumpCandidates,
} from './database-backup';
export {
  backupLogically,
  BACKUP_FORMAT,
  type BackupHeader,
  type LogicalBackupResult,
  readBackupHeader,
  restoreLogically,
  RestoreRefused,
  type RestoreResult,
} from './logical-backup';
export { openPrivateFile } from './private-file';
