import { Body, Controller, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { isStaffRole, type NotificationPreferencesView, preferencesShownTo } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { NotificationPreferencesService } from '../../application/notification-preferences';
import {
  ChangeNotificationPreferencesDto,
  NotificationPreferencesDto,
} from '../../infrastructure/notification-preferences.http';

/** Replaces the signed-in person's own preferences; what the request leaves out is the default (ADR 0102). */
@ApiTags('users')
@ApiBearerAuth()
@Controller('users/me/notification-preferences')
export class ChangeNotificationPreferencesController {
  constructor(private readonly preferences: NotificationPreferencesService) {}

  @Put()
  @ApiOkResponse({ type: NotificationPreferencesDto })
  @ApiErrors(400, 401, 403)
  @ApiOperation({ summary: 'Replaces the signed-in person’s notification preferences' })
  async change(
    @CurrentActor() actor: Actor,
    @ReqContext() context: RequestContext,
    @Body() request: ChangeNotificationPreferencesDto,
  ): Promise<NotificationPreferencesView> {
    // The kinds as a plain record: the rule reads any kind it is given and refuses those it does not know.
    const saved = await this.preferences.replace(
      actor.userUuid,
      { ...request, channels: request.channels && { ...request.channels } },
      context,
    );
    return preferencesShownTo(saved, isStaffRole(actor.role));
  }
}
