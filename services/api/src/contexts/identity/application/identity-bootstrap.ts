import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { checkEmail, checkPassword } from '@kupa/proto';
import { APP_CONFIG, type AppConfig } from '../../../platform/config';
import { AdminAccounts, type EnsuredAccount } from './admin-accounts';

/**
 * One strong password shared by the demo accounts; shown in the start banner on the embedded demo (start-banner.ts),
 * never used outside demo installs.
 */
export const DEMO_PASSWORD = 'Kupa-Demo-2026!';

export const DEMO_ACCOUNTS: readonly EnsuredAccount[] = Object.freeze([
  { email: 'admin@kupa.local', role: 'ADMIN', firstName: 'אביגיל', lastName: 'לוי', password: DEMO_PASSWORD },
  { email: 'manager@kupa.local', role: 'MANAGER', firstName: 'יונתן', lastName: 'כהן', password: DEMO_PASSWORD },
  { email: 'client@kupa.local', role: 'CLIENT', firstName: 'דנה', lastName: 'מזרחי', password: DEMO_PASSWORD },
  { email: 'ambassador@kupa.local', role: 'AMBASSADOR', firstName: 'רון', lastName: 'אברהם', password: DEMO_PASSWORD },
]);

/**
 * At start: the operator's admin (ADMIN_EMAIL/ADMIN_PASSWORD) exists and is ACTIVE, and with demo data on, the
 * four demo accounts exist. Idempotent: a restart appends no events for accounts already as they should be.
 */
@Injectable()
export class IdentityBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('Identity');

  constructor(
    private readonly admins: AdminAccounts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const { adminEmail, adminPassword } = this.config;
    if (adminEmail && adminPassword) {
      if (checkEmail(adminEmail) || checkPassword(adminPassword)) {
        throw new Error('ADMIN_EMAIL must be an e-mail address and ADMIN_PASSWORD must follow the password rules');
      }
      const outcome = await this.admins.createAdmin(adminEmail, adminPassword);
      this.logger.log(`Admin ${adminEmail} ${outcome.created ? 'created' : 'is active'}`);
    }
    if (this.config.demoData) {
      for (const account of DEMO_ACCOUNTS) {
        const existing = await this.admins.ensureIfMissing(account);
        if (existing.created) this.logger.log(`Demo account ${account.email} created`);
      }
    }
  }
}
