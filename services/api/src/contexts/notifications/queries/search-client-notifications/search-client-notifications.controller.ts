import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type Page, type SentNotification, STAFF_ROLES } from '@kupa/proto';
import { ReadOnlyRoute, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { UserUuidPipe } from '../../infrastructure/params';
import { NotificationPageRequestDto } from '../../infrastructure/notifications.requests';
import { SentNotificationPageDto } from '../../infrastructure/notifications.responses';
import { SearchClientNotificationsQuery } from './search-client-notifications.query';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('users')
export class SearchClientNotificationsController {
  constructor(private readonly queries: QueryBus) {}

  @Post(':uuid/notifications/search')
  @ReadOnlyRoute()
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: SentNotificationPageDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles(...STAFF_ROLES)
  @HttpCode(200)
  @ApiOperation({ summary: 'What one client was sent, with whether it was read and its mail’s state (staff)' })
  search(
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Body() request: NotificationPageRequestDto,
  ): Promise<Page<SentNotification>> {
    return this.queries.execute(new SearchClientNotificationsQuery(userUuid, request));
  }
}
