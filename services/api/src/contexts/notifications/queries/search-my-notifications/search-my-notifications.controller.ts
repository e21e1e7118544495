import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CUSTOMER_ROLES, type NotificationPage } from '@kupa/proto';
import { type Actor, CurrentActor, ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { NotificationPageRequestDto } from '../../infrastructure/notifications.requests';
import { NotificationPageDto } from '../../infrastructure/notifications.responses';
import { SearchMyNotificationsQuery } from './search-my-notifications.query';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications')
export class SearchMyNotificationsController {
  constructor(private readonly queries: QueryBus) {}

  @Post('search')
  @ReadOnlyRoute()
  @ApiOkResponse({ type: NotificationPageDto })
  @ApiErrors(400, 401, 403)
  @Roles(...CUSTOMER_ROLES)
  @HttpCode(200)
  @ApiOperation({ summary: 'The signed-in client’s notifications, newest first, with the unread count' })
  search(@CurrentActor() actor: Actor, @Body() request: NotificationPageRequestDto): Promise<NotificationPage> {
    return this.queries.execute(new SearchMyNotificationsQuery(actor.userUuid, request));
  }
}
