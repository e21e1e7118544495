import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type ClientNotification, CUSTOMER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { Clock } from '../../../../platform/clock';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { NotificationIdPipe } from '../../infrastructure/params';
import { ClientNotificationDto } from '../../infrastructure/notifications.responses';
import { MarkNotificationReadCommand } from './mark-notification-read.command';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications')
export class MarkNotificationReadController {
  constructor(
    private readonly commands: CommandBus,
    private readonly clock: Clock,
  ) {}

  @Post(':id/read')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: ClientNotificationDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles(...CUSTOMER_ROLES)
  @HttpCode(200)
  @ApiOperation({ summary: 'Marks one of the client’s notifications read (another client’s answers 404)' })
  markRead(
    @CurrentActor() actor: Actor,
    @Param('id', NotificationIdPipe) notificationId: string,
  ): Promise<ClientNotification> {
    return this.commands.execute(new MarkNotificationReadCommand(actor.userUuid, notificationId, this.clock.now()));
  }
}
