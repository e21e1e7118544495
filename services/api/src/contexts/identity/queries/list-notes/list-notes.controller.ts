import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiOkResponse } from '@nestjs/swagger';
import type { Note } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { ListNotesQuery } from './list-notes.query';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { NoteDto } from '../../infrastructure/http/identity.responses';

@ApiTags('notes')
@ApiBearerAuth()
@Controller('users')
export class ListNotesController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':uuid/notes')
  @ApiUuidParam('uuid')
  @ApiOkResponse({ type: [NoteDto], description: 'Newest first' })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  list(@Param('uuid', UserUuidPipe) userUuid: string): Promise<Note[]> {
    return this.queries.execute(new ListNotesQuery(userUuid));
  }
}
