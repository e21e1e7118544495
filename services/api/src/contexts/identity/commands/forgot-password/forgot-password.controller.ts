import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { MAIL_REQUEST_LIMIT } from '../../infrastructure/rate-limits';
import { RateLimit, RateLimitGuard } from '../../../../platform/http';
import { ForgotPasswordCommand } from './forgot-password.command';
import { ForgotPasswordRequestDto } from './forgot-password.request.dto';

@ApiTags('password')
@Controller('password')
export class ForgotPasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post('forgot')
  @HttpCode(204)
  @UseGuards(RateLimitGuard)
  @RateLimit(MAIL_REQUEST_LIMIT)
  async forgot(@Body() request: ForgotPasswordRequestDto, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new ForgotPasswordCommand(request, context));
  }
}
