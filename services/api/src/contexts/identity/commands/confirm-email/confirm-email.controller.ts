import { Controller, Get, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { ConfirmationResponse } from '@kupa/proto';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ConfirmEmailCommand } from './confirm-email.command';
import { ConfirmEmailQueryDto } from './confirm-email.request.dto';
import { ApiErrors } from '../../../../platform/http';
import { ConfirmationResponseDto } from '../../infrastructure/http/identity.responses';

@ApiTags('auth')
@Controller('confirmation-token')
export class ConfirmEmailController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Get()
  @ApiOkResponse({ type: ConfirmationResponseDto })
  @ApiErrors(400, 403, 409)
  confirm(@Query() query: ConfirmEmailQueryDto, @ReqContext() context: RequestContext): Promise<ConfirmationResponse> {
    return this.commands.execute(new ConfirmEmailCommand(query.token, context));
  }
}
