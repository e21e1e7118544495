import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { EndClientSessionsRequestDto, EndedSessionsDto } from '../../infrastructure/sessions/sessions.http';
import { EndClientSessionsCommand } from './end-client-sessions.command';

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class EndClientSessionsController {
  constructor(private readonly commands: CommandBus) {}

  /** Admins only (ADR 0099); the client is told the reason at their next request, the note stays in the log. */
  @Post(':uuid/sessions-end')
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: EndedSessionsDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN')
  @HttpCode(200)
  end(
    @CurrentActor() actor: Actor,
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Body() body: EndClientSessionsRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<EndedSessionsDto> {
    return this.commands.execute(new EndClientSessionsCommand(actor, userUuid, body, context));
  }
}
