import { Body, Controller, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { EmailChangeResponse } from '@kupa/proto';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { EmailChangeResponseDto } from '../../infrastructure/http/identity.responses';
import { ConfirmEmailChangeCommand } from './confirm-email-change.command';
import { ConfirmEmailChangeRequestDto } from './confirm-email-change.request.dto';

@ApiTags('email')
@Controller('email')
export class ConfirmEmailChangeController {
  constructor(private readonly commands: CommandBus) {}

  /** The token is the proof, as for a password reset: the link is often opened where no one is signed in. */
  @Public()
  @Put('token')
  @ApiOkResponse({ type: EmailChangeResponseDto, description: 'Changed; every session of the account ends' })
  @ApiErrors(400, 403, 409)
  confirm(
    @Body() request: ConfirmEmailChangeRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<EmailChangeResponse> {
    return this.commands.execute(new ConfirmEmailChangeCommand(request.token, context));
  }
}
