import { Controller, Get, Param } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Note } from '@kupa/proto';
import { Roles } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/params';
import { ListNotesQuery } from './list-notes.query';

@ApiTags('notes')
@ApiBearerAuth()
@Controller('users/notes')
export class ListNotesController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':userUuid')
  @Roles('ADMIN', 'MANAGER')
  list(@Param('userUuid', UserUuidPipe) userUuid: string): Promise<Note[]> {
    return this.queries.execute(new ListNotesQuery(userUuid));
  }
}
