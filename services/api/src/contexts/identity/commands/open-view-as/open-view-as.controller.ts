import { Controller, Header, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiCreatedResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { OpenViewAsCommand, type ViewAsOpened } from './open-view-as.command';

export class ViewAsOpenedDto implements ViewAsOpened {
  @ApiProperty({ description: 'A read-only access token for the client portal; never refreshable' })
  accessToken!: string;
  @ApiProperty({ format: 'uuid', description: "Ties the opening and its requests together in the client's log" })
  viewId!: string;
  @ApiProperty({ format: 'date-time' })
  expiresAt!: string;
}

@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class OpenViewAsController {
  constructor(private readonly commands: CommandBus) {}

  /** Admins and managers look at a client's portal, read only (docs/adr/0092-refund-to-balance-and-view-as.md). */
  @Post(':uuid/view-as')
  @ApiUuidParam('uuid')
  @ApiCreatedResponse({ type: ViewAsOpenedDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(201)
  @Header('Cache-Control', 'no-store')
  open(
    @CurrentActor() actor: Actor,
    @Param('uuid', UserUuidPipe) userUuid: string,
    @ReqContext() context: RequestContext,
  ): Promise<ViewAsOpened> {
    return this.commands.execute(new OpenViewAsCommand(actor, userUuid, context));
  }
}
