import { Controller, Get, Inject } from '@nestjs/common';
import { ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { AppVersion } from '@kupa/proto';
import { Public } from '../../../../platform/auth';
import { COMMON_OPTIONS, type CommonOptions } from '../../common.options';
import { ApiErrors } from '../../../../platform/http';
import { AppVersionDto } from '../../infrastructure/common.responses';

@ApiTags('common')
@Controller('common/app')
export class GetAppVersionController {
  constructor(@Inject(COMMON_OPTIONS) private readonly options: CommonOptions) {}

  @Public()
  @Get('version')
  @ApiOkResponse({ type: AppVersionDto })
  @ApiErrors(400)
  version(): AppVersion {
    return { name: 'kupa', version: this.options.version, commit: process.env.KUPA_COMMIT ?? null };
  }
}
