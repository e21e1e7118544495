import { Body, Controller, HttpCode, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { Public, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ResetPasswordCommand } from './reset-password.command';
import { ResetPasswordRequestDto } from './reset-password.request.dto';
import { ApiErrors } from '../../../../platform/http';

@ApiTags('password')
@Controller('password')
export class ResetPasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Public()
  @Put('token')
  @ApiNoContentResponse({ description: 'The password is set; every session of the user ends' })
  @ApiErrors(400, 403)
  @HttpCode(204)
  async reset(@Body() request: ResetPasswordRequestDto, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new ResetPasswordCommand(request, context));
  }
}
