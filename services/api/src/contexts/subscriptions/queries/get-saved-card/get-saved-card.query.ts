/** The saved card of one client: the caller's own, or any client's when staff ask (the route decides whose). */
export class GetSavedCardQuery {
  constructor(readonly userUuid: string) {}
}
