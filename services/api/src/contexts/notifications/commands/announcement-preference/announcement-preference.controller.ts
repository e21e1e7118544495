import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { type AnnouncementPreference, CUSTOMER_ROLES } from '@kupa/proto';
import { type Actor, CurrentActor, ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { Broadcasts } from '../../application/broadcasts';
import { AnnouncementPreferenceDto } from '../../infrastructure/broadcasts.http';

@ApiTags('notifications')
@ApiBearerAuth()
@Controller('notifications/preferences')
export class AnnouncementPreferenceController {
  constructor(private readonly broadcasts: Broadcasts) {}

  @Get()
  @ApiOkResponse({ type: AnnouncementPreferenceDto })
  @ApiErrors(400, 401, 403)
  @Roles(...CUSTOMER_ROLES)
  @ApiOperation({ summary: 'Whether the signed-in client receives announcements' })
  async get(@CurrentActor() actor: Actor): Promise<AnnouncementPreference> {
    return { announcements: await this.broadcasts.announcementsOn(actor.userUuid) };
  }

  @Put()
  @ApiOkResponse({ type: AnnouncementPreferenceDto })
  @ApiErrors(400, 401, 403)
  @Roles(...CUSTOMER_ROLES)
  @ApiOperation({ summary: 'Switches announcements off or on for the signed-in client; service mails always go' })
  async set(
    @CurrentActor() actor: Actor,
    @ReqContext() context: RequestContext,
    @Body() request: AnnouncementPreferenceDto,
  ): Promise<AnnouncementPreference> {
    await this.broadcasts.setAnnouncements(actor.userUuid, request.announcements, context);
    return { announcements: request.announcements };
  }
}
