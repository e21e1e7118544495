import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { MAIL_REQUEST_LIMITS } from '../../infrastructure/http/rate-limits';
import { ApiErrors, RateLimit } from '../../../../platform/http';
import { ForgotPasswordCommand } from './forgot-password.command';
import { ForgotPasswordRequestDto } from './forgot-password.request.dto';

@ApiTags('password')
@Controller('password')
export class ForgotPasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post('forgot')
  @ApiNoContentResponse({ description: 'Always, whether or not the address has an account' })
  @ApiErrors(400, 429)
  @HttpCode(204)
  @RateLimit(MAIL_REQUEST_LIMITS)
  async forgot(@Body() request: ForgotPasswordRequestDto, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new ForgotPasswordCommand(request, context));
  }
}
