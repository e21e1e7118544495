import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags, ApiExtraModels, ApiOkResponse } from '@nestjs/swagger';
import type { Dictionaries } from '@kupa/proto';
import { Public } from '../../../../platform/auth';
import { CardProvider } from '../../../../platform/card-provider';
import { CashierSettings } from '../../../../platform/cashier';
import { APP_CONFIG, type AppConfig, RewardTiers } from '../../../../platform/config';
import { COMMON_OPTIONS, type CommonOptions } from '../../common.options';
import { buildDictionaries } from './build-dictionaries';
import { ApiErrors } from '../../../../platform/http';
import {
  AmbassadorBonusTierDto,
  DictionariesDto,
  DictionaryEntryDto,
  ReferralDiscountTierDto,
} from '../../infrastructure/common.responses';

@ApiTags('common')
@Controller('dictionaries')
export class GetDictionariesController {
  private readonly dictionaries: Dictionaries;

  constructor(
    @Inject(COMMON_OPTIONS) options: CommonOptions,
    tiers: RewardTiers,
    cards: CardProvider,
    cashier: CashierSettings,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    // Card checkout is offered only with both STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET set, crypto deposits only
    // with a cashier (CASHIER_URL, or the sandbox where KUPA_SANDBOX allows it). The streaming site is the one a
    // subscription's detail shows (ADR 0077), so that the portal's sidebar links the configured site or none.
    this.dictionaries = {
      ...buildDictionaries(options.support, tiers),
      cardCheckoutAvailable: cards.available,
      // Card top-ups also need the operator's switch (`CARD_BALANCE_PAYMENTS`, ADR 0082), as `CardTopUps` checks.
      cardTopUpAvailable: cards.available && config.cardBalancePayments,
      cryptoDepositAvailable: cashier.available,
      streamingSiteUrl: options.streamingSiteUrl,
    };
  }

  @Public()
  @Get()
  @ApiExtraModels(DictionaryEntryDto, ReferralDiscountTierDto, AmbassadorBonusTierDto)
  @ApiOkResponse({ type: DictionariesDto })
  @ApiErrors(400)
  get(): Dictionaries {
    return this.dictionaries;
  }
}
