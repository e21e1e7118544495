import type { AppConfig } from './platform/config';

export interface DemoLogin {
  readonly role: string;
  readonly email: string;
}

export interface StartBannerOptions {
  /** What the process is: `Kupa is up` or `Kupa is up with 2 API processes and a worker`. */
  headline: string;
  /** The demo accounts as seeded, and their shared password; shown only where `demoLoginsShown` says so. */
  demoLogins: readonly DemoLogin[];
  demoPassword: string;
}

/**
 * The demo logins are shown on the embedded demo only: demo data seeded into the embedded database. A named database
 * is a real deployment (or could be one) even with `DEMO_DATA=1`, and its start never prints a password.
 */
export function demoLoginsShown(config: Pick<AppConfig, 'databaseUrl' | 'demoData'>): boolean {
  return config.databaseUrl === null && config.demoData;
}

/**
 * What a person at the terminal needs once `npm start` is up (docs/adr/0074-readable-first-run.md): where the two apps
 * and the API document are, and on the embedded demo the logins to try them with. Plain text, not a log line; it
 * holds no secret of the installation (the demo password is the public one in the README).
 */
export function startBanner(
  config: Pick<AppConfig, 'publicUrl' | 'databaseUrl' | 'demoData'>,
  options: StartBannerOptions,
): string {
  const lines = [
    '',
    `  ${options.headline}`,
    '',
    `  Client portal   ${config.publicUrl}/`,
    `  Staff console   ${config.publicUrl}/admin`,
    `  API document    ${config.publicUrl}/api/docs`,
  ];
  if (demoLoginsShown(config) && options.demoLogins.length > 0) {
    lines.push('', `  Demo logins (embedded demo database only), password ${options.demoPassword}`);
    for (const login of options.demoLogins) lines.push(`    ${login.role.toLowerCase().padEnd(12)}${login.email}`);
  }
  lines.push('', '  Stop with Ctrl+C.', '');
  return `${lines.join('\n')}\n`;
}

/** The same demo logins as one log line, for JSON logs, where a multi-line banner would not parse. */
export function demoLoginsLine(options: Pick<StartBannerOptions, 'demoLogins' | 'demoPassword'>): string {
  const logins = options.demoLogins.map((login) => `${login.email} (${login.role})`).join(', ');
  return `Demo logins, each with the password ${options.demoPassword}: ${logins}`;
}
