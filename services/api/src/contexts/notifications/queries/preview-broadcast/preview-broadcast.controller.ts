import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BroadcastPreview } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { ClientFilterDto } from '../../../identity';
import { Broadcasts } from '../../application/broadcasts';
import { BroadcastPreviewDto } from '../../infrastructure/broadcasts.http';

@ApiTags('broadcasts')
@ApiBearerAuth()
@Controller('broadcasts')
export class PreviewBroadcastController {
  constructor(private readonly broadcasts: Broadcasts) {}

  @Post('preview')
  @ApiOkResponse({ type: BroadcastPreviewDto })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN')
  @HttpCode(200)
  @ApiOperation({ summary: 'How many clients a broadcast to these filters would reach now, and how many opted out' })
  preview(@Body() filter: ClientFilterDto): Promise<BroadcastPreview> {
    return this.broadcasts.preview(filter);
  }
}
