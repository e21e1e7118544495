import { Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CUSTOMER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { ApiErrors } from '../../../../platform/http';
import { MarkedReadDto } from '../../infrastructure/notifications.responses';
import { MarkAllNotificationsReadCommand } from './mark-all-notifications-read.command';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications')
export class MarkAllNotificationsReadController {
  constructor(
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  @Post('read-all')
  @ApiOkResponse({ type: MarkedReadDto })
  @ApiErrors(400, 401, 403)
  @Roles(...CUSTOMER_ROLES)
  @HttpCode(200)
  @ApiOperation({ summary: 'Marks all of the client’s notifications read' })
  markAllRead(@CurrentActor() actor: Actor): Promise<{ marked: number }> {
    return this.commands.execute(new MarkAllNotificationsReadCommand(actor.userUuid, this.clock.now()));
  }
}
