import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Dictionaries } from '@kupa/proto';
import { Public } from '../../../../platform/auth';
import { buildDictionaries } from './build-dictionaries';

@ApiTags('common')
@Controller('dictionaries')
export class GetDictionariesController {
  private readonly dictionaries = buildDictionaries();

  @Public()
  @Get()
  get(): Dictionaries {
    return this.dictionaries;
  }
}
