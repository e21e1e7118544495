import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { User } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { CreateUserCommand } from './create-user.command';
import { CreateUserRequestDto } from './create-user.request.dto';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class CreateUserController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @Roles('ADMIN')
  @HttpCode(201)
  create(@Body() request: CreateUserRequestDto, @ReqContext() context: RequestContext): Promise<User> {
    return this.commands.execute(new CreateUserCommand(request, context));
  }
}
