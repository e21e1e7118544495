import { Body, Controller, HttpCode, Post, UseGuards } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Throttle } from '@nestjs/throttler';
import { Public } from '../../../../platform/auth';
import { MAIL_REQUEST_LIMIT, PerIpThrottlerGuard } from '../../infrastructure/rate-limits';
import { ResendConfirmationCommand } from './resend-confirmation.command';
import { EmailRequestDto } from './resend-confirmation.request.dto';

@ApiTags('auth')
@Controller('users')
export class ResendConfirmationController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post('resend-signup-email')
  @HttpCode(204)
  @UseGuards(PerIpThrottlerGuard)
  @Throttle({ default: MAIL_REQUEST_LIMIT })
  async resend(@Body() request: EmailRequestDto): Promise<void> {
    await this.commands.execute(new ResendConfirmationCommand(request));
  }
}
