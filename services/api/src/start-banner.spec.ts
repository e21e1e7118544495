import { demoLoginsLine, startBanner } from './start-banner';

const demo = {
  headline: 'Kupa is up',
  demoLogins: [
    { role: 'ADMIN', email: 'admin@kupa.local' },
    { role: 'CLIENT', email: 'client@kupa.local' },
  ],
  demoPassword: 'Kupa-Demo-2026!',
};

describe('the start banner', () => {
  it('names the apps and, on the embedded demo, the demo logins', () => {
    const banner = startBanner({ publicUrl: 'http://localhost:3000', databaseUrl: null, demoData: true }, demo);
    expect(banner.split('\n')).toEqual([
      '',
      '  Kupa is up',
      '',
      '  Client portal   http://localhost:3000/',
      '  Staff console   http://localhost:3000/admin',
      '  API document    http://localhost:3000/api/docs',
      '',
      '  Demo logins (embedded demo database only), password Kupa-Demo-2026!',
      '    admin       admin@kupa.local',
      '    client      client@kupa.local',
      '',
      '  Stop with Ctrl+C.',
      '',
      '',
    ]);
  });

  it('never shows a password on a named database, even with DEMO_DATA=1', () => {
    const banner = startBanner(
      { publicUrl: 'https://kupa.example.com', databaseUrl: 'postgres://db/kupa', demoData: true },
      demo,
    );
    expect(banner).toContain('https://kupa.example.com/admin');
    expect(banner).not.toContain('Demo logins');
    expect(banner).not.toContain('Kupa-Demo-2026!');
  });

  it('shows no logins when the embedded database has no demo data', () => {
    const banner = startBanner({ publicUrl: 'http://localhost:3000', databaseUrl: null, demoData: false }, demo);
    expect(banner).not.toContain('Demo logins');
  });

  it('puts the demo logins on one line for JSON logs', () => {
    expect(demoLoginsLine(demo)).toBe(
      'Demo logins, each with the password Kupa-Demo-2026!: admin@kupa.local (ADMIN), client@kupa.local (CLIENT)',
    );
  });
});
