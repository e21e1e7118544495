/** The client marked every notification of theirs read. */
export class MarkAllNotificationsReadCommand {
  constructor(
    readonly userUuid: string,
    readonly at: Date,
  ) {}
}
