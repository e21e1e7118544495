export {
  type AppConfig,
  type KafkaSettings,
  type OperatorDetails,
  loadConfig,
  LOG_FORMATS,
  type LogFormatSetting,
  PASSWORD_HASH_COST,
  type PasswordHashCost,
  PROCESS_ROLES,
  processRole,
  type ProcessRole,
  type RateLimitSetting,
  type RateLimitSettings,
  type SessionLimits,
  type SessionPolicy,
  persistentSecret,
  repositoryRoot,
  sandboxWarnings,
  warnOfSandboxes,
  type TrustProxySetting,
} from './app-config';
export { APP_CONFIG, ConfigModule } from './config.module';
export { RewardTiers } from './reward-tiers';
