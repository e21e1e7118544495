import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiParam, ApiTags } from '@nestjs/swagger';
import type { PromoCodeView } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { PromoCodeViewDto } from '../../infrastructure/promo-codes.responses';
import { DisablePromoCodeCommand } from './disable-promo-code.command';

@ApiTags('promo-codes')
@ApiBearerAuth()
@Controller('promo-codes')
export class DisablePromoCodeController {
  constructor(private readonly commands: CommandBus) {}

  /** Disables a code for good (again: unchanged). 404 `error.promo.code.not.found`. */
  @Post(':code/disable')
  @HttpCode(200)
  @ApiParam({ name: 'code', description: 'The code, any case' })
  @ApiOkResponse({ type: PromoCodeViewDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN')
  disable(@Param('code') code: string, @ReqContext() context: RequestContext): Promise<PromoCodeView> {
    return this.commands.execute(new DisablePromoCodeCommand(code, context));
  }
}
