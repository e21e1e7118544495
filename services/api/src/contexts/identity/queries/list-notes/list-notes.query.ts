import { Query } from '@nestjs/cqrs';
import type { Note } from '@kupa/proto';

export class ListNotesQuery extends Query<Note[]> {
  constructor(readonly userUuid: string) {
    super();
  }
}
