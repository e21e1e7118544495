import { type IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import type { Note } from '@kupa/proto';
import { ApiError } from '../../../../platform/http';
import { NoteReader } from '../../projections/user-notes/note-reader';
import { UserReader } from '../../projections/users/user-reader';
import { ListNotesQuery } from './list-notes.query';

@QueryHandler(ListNotesQuery)
export class ListNotesHandler implements IQueryHandler<ListNotesQuery, Note[]> {
  constructor(
    private readonly notes: NoteReader,
    private readonly users: UserReader,
  ) {}

  async execute({ userUuid }: ListNotesQuery): Promise<Note[]> {
    if (!(await this.users.findByUuid(userUuid))) throw new ApiError('error.user.not.found');
    return this.notes.listFor(userUuid);
  }
}
