import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { RateLimit } from '../../../../platform/http';
import { SIGN_UP_LIMITS } from '../../infrastructure/http/rate-limits';
import { SignUpCommand } from './sign-up.command';
import { SignUpRequestDto } from './sign-up.request.dto';
import { ApiErrors } from '../../../../platform/http';
import { UserDto } from '../../infrastructure/http/identity.responses';

@ApiTags('auth')
@Controller('auth')
export class SignUpController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Post('signup')
  @ApiCreatedResponse({ type: UserDto, description: 'The new NON_VERIFIED user; a confirmation mail follows' })
  @ApiErrors(400, 409, 429)
  @HttpCode(201)
  @RateLimit(SIGN_UP_LIMITS)
  signUp(@Body() request: SignUpRequestDto, @ReqContext() context: RequestContext): Promise<User> {
    return this.commands.execute(new SignUpCommand(request, context));
  }
}
