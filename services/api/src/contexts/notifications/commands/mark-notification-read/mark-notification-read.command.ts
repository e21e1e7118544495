/** The client read one of their notifications; another client's (or none) is 404. */
export class MarkNotificationReadCommand {
  constructor(
    readonly userUuid: string,
    readonly notificationId: string,
    readonly at: Date,
  ) {}
}
