import { Controller, Get } from '@nestjs/common';
import { ApiTags, ApiExtraModels, ApiOkResponse } from '@nestjs/swagger';
import type { Dictionaries } from '@kupa/proto';
import { Public } from '../../../../platform/auth';
import { buildDictionaries } from './build-dictionaries';
import { ApiErrors } from '../../../../platform/http';
import { DictionariesDto, DictionaryEntryDto } from '../../infrastructure/common.responses';

@ApiTags('common')
@Controller('dictionaries')
export class GetDictionariesController {
  private readonly dictionaries = buildDictionaries();

  @Public()
  @Get()
  @ApiExtraModels(DictionaryEntryDto)
  @ApiOkResponse({ type: DictionariesDto })
  @ApiErrors(400)
  get(): Dictionaries {
    return this.dictionaries;
  }
}
