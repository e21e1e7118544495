import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { PromoCodeQuote, PromoCodeView } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { PromoCodes } from '../../application/promo-codes';
import { PromoCodeQuoteDto, PromoCodeViewDto } from '../../infrastructure/promo-codes.responses';
import { PromoCodeQuotes } from './promo-code-quotes';
import { QuotePromoCodeQueryDto } from './quote-promo-code.request.dto';

@ApiTags('promo-codes')
@ApiBearerAuth()
@Controller('promo-codes')
export class PromoCodesController {
  constructor(
    private readonly promoCodes: PromoCodes,
    private readonly quotes: PromoCodeQuotes,
  ) {}

  /** Every code, newest first, with its uses, revenue and discount given. Admins manage codes; managers read them. */
  @Get()
  @ApiOkResponse({ type: PromoCodeViewDto, isArray: true })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN', 'MANAGER')
  list(): Promise<PromoCodeView[]> {
    return this.promoCodes.list();
  }

  /**
   * What the client would pay with the code for a package (`planId`) or a renewal (`subscriptionId`), by the rule
   * "the larger of the code and the referral discount": nothing is spent. 400 `error.promo.code.invalid`; 404
   * `error.promo.code.not.found`, `error.payment.plan.not.found`, another's subscription; 409 the code's refusals.
   */
  @Get('quote')
  @ApiOkResponse({ type: PromoCodeQuoteDto })
  @ApiErrors(400, 401, 403, 404, 409)
  @Roles('CLIENT', 'AMBASSADOR')
  quote(
    @CurrentActor() actor: Actor,
    @Query() query: QuotePromoCodeQueryDto,
    @ReqContext() context: RequestContext,
  ): Promise<PromoCodeQuote> {
    return this.quotes.quote(actor, query, context);
  }
}
