export class ListNotesQuery {
  constructor(readonly userUuid: string) {}
}
