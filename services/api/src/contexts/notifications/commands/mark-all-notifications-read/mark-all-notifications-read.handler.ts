import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { MarkAllNotificationsReadCommand } from './mark-all-notifications-read.command';

@CommandHandler(MarkAllNotificationsReadCommand)
export class MarkAllNotificationsReadHandler implements ICommandHandler<
  MarkAllNotificationsReadCommand,
  { marked: number }
> {
  constructor(private readonly dataSource: DataSource) {}

  async execute({ userUuid, at }: MarkAllNotificationsReadCommand): Promise<{ marked: number }> {
    const [{ marked }]: Array<{ marked: number }> = await this.dataSource.query(
      `WITH marked AS (UPDATE client_notifications SET read_at = $2
                        WHERE user_uuid = $1 AND read_at IS NULL RETURNING id)
       SELECT count(*)::int AS marked FROM marked`,
      [userUuid, at],
    );
    return { marked };
  }
}
