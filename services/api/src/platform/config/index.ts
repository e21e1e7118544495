export { type AppConfig, loadConfig, persistentSecret, repositoryRoot } from './app-config';
export { APP_CONFIG, ConfigModule } from './config.module';
