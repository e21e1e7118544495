import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { MAIL_REQUEST_LIMITS } from '../../infrastructure/http/rate-limits';
import { ApiErrors, RateLimit } from '../../../../platform/http';
import { ResendConfirmationCommand } from './resend-confirmation.command';
import { EmailRequestDto } from './resend-confirmation.request.dto';

@ApiTags('auth')
@Controller('users')
export class ResendConfirmationController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post('resend-signup-email')
  @ApiNoContentResponse({ description: 'Always, whether or not an account waits for confirmation' })
  @ApiErrors(400, 429)
  @HttpCode(204)
  @RateLimit(MAIL_REQUEST_LIMITS)
  async resend(@Body() request: EmailRequestDto, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new ResendConfirmationCommand(request, context));
  }
}
