import { Body, Controller, HttpCode, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags } from '@nestjs/swagger';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ResetPasswordCommand } from './reset-password.command';
import { ResetPasswordRequestDto } from './reset-password.request.dto';

@ApiTags('password')
@Controller('password')
export class ResetPasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Put('token')
  @HttpCode(204)
  async reset(@Body() request: ResetPasswordRequestDto, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new ResetPasswordCommand(request, context));
  }
}
