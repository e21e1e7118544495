import { Body, Controller, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiTags } from '@nestjs/swagger';
import type { PromoCodeView } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { PromoCodeViewDto } from '../../infrastructure/promo-codes.responses';
import { CreatePromoCodeCommand } from './create-promo-code.command';
import { CreatePromoCodeRequestDto } from './create-promo-code.request.dto';

@ApiTags('promo-codes')
@ApiBearerAuth()
@Controller('promo-codes')
export class CreatePromoCodeController {
  constructor(private readonly commands: CommandBus) {}

  /**
   * Creates a promo code (docs/adr/0088-promo-codes.md). 400 `error.promo.code.invalid` (its form),
   * `error.promo.code.terms.invalid` (a percent with an amount, an end before the start…); 409
   * `error.promo.code.already.exists` (codes are case-insensitive).
   */
  @Post()
  @ApiCreatedResponse({ type: PromoCodeViewDto })
  @ApiErrors(400, 401, 403, 409)
  @Roles('ADMIN')
  create(@Body() request: CreatePromoCodeRequestDto, @ReqContext() context: RequestContext): Promise<PromoCodeView> {
    return this.commands.execute(new CreatePromoCodeCommand(request, context));
  }
}
