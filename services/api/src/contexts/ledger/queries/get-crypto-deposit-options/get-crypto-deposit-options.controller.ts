import { Controller, Get, Inject } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import {
  CASHIER_PROVIDERS,
  type CashierProvider,
  CRYPTO_METHODS,
  type CryptoDepositOptions,
  type CryptoMethod,
  minorToAmount,
} from '@kupa/proto';
import { CashierSettings } from '../../../../platform/cashier';
import { APP_CONFIG, type AppConfig } from '../../../../platform/config';
import { ApiError, ApiErrors } from '../../../../platform/http';

export class CryptoDepositOptionsDto implements CryptoDepositOptions {
  @ApiProperty({ description: 'The smallest deposit, in dollars' })
  minAmount: number;

  @ApiProperty({ description: 'The largest deposit, in dollars' })
  maxAmount: number;

  @ApiProperty({ enum: CRYPTO_METHODS, isArray: true })
  methods: CryptoMethod[];

  @ApiProperty({ enum: CASHIER_PROVIDERS, description: 'SANDBOX when no real cashier is configured' })
  provider: CashierProvider;
}

/**
 * What the deposit form offers: the configured limits and the crypto methods; `error.cashier.unavailable` (503)
 * where there is no cashier (docs/adr/0055-sandboxes-only-on-demand.md).
 */
@ApiTags('payments')
@ApiBearerAuth()
@Controller('payments/crypto')
export class GetCryptoDepositOptionsController {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly settings: CashierSettings,
  ) {}

  @Get('options')
  @ApiOkResponse({ type: CryptoDepositOptionsDto })
  @ApiErrors(400, 401, 403, 503)
  options(): CryptoDepositOptions {
    if (!this.settings.available) throw new ApiError('error.cashier.unavailable');
    return {
      minAmount: minorToAmount(this.config.cashierDepositMinMinor),
      maxAmount: minorToAmount(this.config.cashierDepositMaxMinor),
      methods: [...CRYPTO_METHODS],
      provider: this.settings.provider,
    };
  }
}
