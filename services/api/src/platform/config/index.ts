export {
  type AppConfig,
  loadConfig,
  type RateLimitSetting,
  type RateLimitSettings,
  persistentSecret,
  repositoryRoot,
} from './app-config';
export { APP_CONFIG, ConfigModule } from './config.module';
export { RewardTiers } from './reward-tiers';
