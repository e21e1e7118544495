import { Body, Controller, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BroadcastDetail } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { ApiErrors } from '../../../../platform/http';
import { Broadcasts } from '../../application/broadcasts';
import { BroadcastDetailDto, CreateBroadcastRequestDto } from '../../infrastructure/broadcasts.http';

@ApiTags('broadcasts')
@ApiBearerAuth()
@Controller('broadcasts')
export class SendBroadcastController {
  constructor(private readonly broadcasts: Broadcasts) {}

  @Post()
  @ApiCreatedResponse({ type: BroadcastDetailDto })
  @ApiErrors(400, 401, 403, 409)
  @Roles('ADMIN')
  @ApiOperation({
    summary:
      'Sends an announcement to the clients the filters match now; they are handed to the mail outbox at the rate',
  })
  send(@ReqContext() context: RequestContext, @Body() request: CreateBroadcastRequestDto): Promise<BroadcastDetail> {
    return this.broadcasts.create(request, context);
  }
}
