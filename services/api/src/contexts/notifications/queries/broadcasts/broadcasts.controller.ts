import { Controller, Get, Param } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { BroadcastDetail, BroadcastSummary } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { ApiErrors, ApiUuidParam, CanonicalUuidPipe } from '../../../../platform/http';
import { Broadcasts } from '../../application/broadcasts';
import { BroadcastDetailDto, BroadcastSummaryDto } from '../../infrastructure/broadcasts.http';

const BroadcastIdPipe = CanonicalUuidPipe('error.broadcast.not.found');

@ApiTags('broadcasts')
@ApiBearerAuth()
@Controller('broadcasts')
export class BroadcastsController {
  constructor(private readonly broadcasts: Broadcasts) {}

  @Get()
  @ApiOkResponse({ type: [BroadcastSummaryDto] })
  @ApiErrors(400, 401, 403)
  @Roles('ADMIN')
  @ApiOperation({ summary: 'The latest 100 broadcasts, newest first, with where their recipients stand' })
  list(): Promise<BroadcastSummary[]> {
    return this.broadcasts.list();
  }

  @Get(':id')
  @ApiUuidParam('id')
  @ApiOkResponse({ type: BroadcastDetailDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN')
  @ApiOperation({ summary: 'One broadcast with each recipient and their status' })
  get(@Param('id', BroadcastIdPipe) id: string): Promise<BroadcastDetail> {
    return this.broadcasts.detail(id);
  }
}
