import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { isStaffRole, type NotificationPreferencesView, preferencesShownTo } from '@kupa/proto';
import { type Actor, CurrentActor, Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { NotificationPreferencesService } from '../../application/notification-preferences';
import { NotificationPreferencesDto } from '../../infrastructure/notification-preferences.http';
import { UserUuidPipe } from '../../infrastructure/params';

/**
 * One's own notification preferences (any signed-in person, staff included), and a client's for staff on the client's
 * page, read only (docs/adr/0102-notification-preferences.md). `me` is declared first, so it is never read as a uuid.
 */
@ApiTags('users')
@ApiBearerAuth()
@Controller('users')
export class GetNotificationPreferencesController {
  constructor(private readonly preferences: NotificationPreferencesService) {}

  @Get('me/notification-preferences')
  @ApiOkResponse({ type: NotificationPreferencesDto })
  @ApiErrors(400, 401, 403)
  @ApiOperation({ summary: 'The signed-in person’s notification preferences, defaults filled in' })
  async mine(@CurrentActor() actor: Actor): Promise<NotificationPreferencesView> {
    return preferencesShownTo(await this.preferences.of(actor.userUuid), isStaffRole(actor.role));
  }

  @Get(':uuid/notification-preferences')
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: NotificationPreferencesDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @ApiOperation({ summary: 'A client’s notification preferences, for staff (read only)' })
  async ofClient(@Param('uuid', UserUuidPipe) userUuid: string): Promise<NotificationPreferencesView> {
    // Only a client's (an ambassador's) are read here, so never the staff-only kinds.
    return preferencesShownTo(await this.preferences.ofClient(userUuid), false);
  }
}
