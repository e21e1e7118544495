import { Controller, Get, Query } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import type { ConfirmationResponse } from '@kupa/proto';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ConfirmEmailCommand } from './confirm-email.command';
import { ConfirmEmailQueryDto } from './confirm-email.request.dto';

@ApiTags('auth')
@Controller('confirmation-token')
export class ConfirmEmailController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Get()
  confirm(@Query() query: ConfirmEmailQueryDto, @ReqContext() context: RequestContext): Promise<ConfirmationResponse> {
    return this.commands.execute(new ConfirmEmailCommand(query.token, context));
  }
}
