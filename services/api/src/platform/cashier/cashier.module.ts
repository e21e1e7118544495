import { Global, Module } from '@nestjs/common';
import { CashierClient } from './cashier-client';
import { CashierSettings } from './cashier-settings';
import { SandboxCashierController } from './sandbox/sandbox-cashier.controller';
import { SandboxCashier } from './sandbox/sandbox-cashier.service';

/**
 * The crypto cashier's outside edge (docs/adr/0028-crypto-cashier.md): the NOWPayments client our adapter calls,
 * its settings, and the sandbox that stands in for the provider when `CASHIER_URL` is unset. No business rules: the
 * ledger decides what a provider's answer means for money.
 */
@Global()
@Module({
  controllers: [SandboxCashierController],
  providers: [CashierSettings, CashierClient, SandboxCashier],
  exports: [CashierSettings, CashierClient],
})
export class CashierModule {}
