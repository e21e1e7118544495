import { Controller, HttpCode, Post, Query } from '@nestjs/common';
import { ApiNoContentResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public, systemContext } from '../../../../platform/auth';
import { ApiError, ApiErrors } from '../../../../platform/http';
import { Broadcasts } from '../../application/broadcasts';
import { UnsubscribeQueryDto } from '../../infrastructure/broadcasts.http';
import { UnsubscribeTokens } from '../../infrastructure/unsubscribe-tokens';

@ApiTags('broadcasts')
@Controller('announcements')
export class UnsubscribeAnnouncementsController {
  constructor(
    private readonly broadcasts: Broadcasts,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  /**
   * No sign-in: the signed token names the client. The portal's page and a mail client's one-click POST (RFC 8058,
   * whose form body `List-Unsubscribe=One-Click` is not read) both land here; a repeat changes nothing.
   */
  @Public()
  @Post('unsubscribe')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Announcements are off for the client the token names' })
  @ApiErrors(400)
  @ApiOperation({ summary: 'Switches announcements off by an unsubscribe link’s token' })
  async unsubscribe(@Query() query: UnsubscribeQueryDto): Promise<void> {
    const userUuid = this.tokens.userOf(query.token);
    if (userUuid === null) throw new ApiError('error.unsubscribe.link.invalid');
    // No one is signed in: the signed link is the person's own word, told as the system's in the activity log.
    await this.broadcasts.setAnnouncements(userUuid, false, systemContext());
  }
}
