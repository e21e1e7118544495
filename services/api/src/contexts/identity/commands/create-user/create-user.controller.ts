import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { CreateUserCommand } from './create-user.command';
import { CreateUserRequestDto } from './create-user.request.dto';
import { ApiErrors } from '../../../../platform/http';
import { UserDto } from '../../infrastructure/http/identity.responses';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class CreateUserController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @ApiCreatedResponse({ type: UserDto, description: 'The new ACTIVE user' })
  @ApiErrors(400, 401, 403, 409)
  @Roles('ADMIN')
  @HttpCode(201)
  create(@Body() request: CreateUserRequestDto, @ReqContext() context: RequestContext): Promise<User> {
    return this.commands.execute(new CreateUserCommand(request, context));
  }
}
