import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { STAFF_SESSION_END_CODES } from '@kupa/proto';
import { CommandPipeline } from '../../../../platform/commands';
import { Clock } from '../../../../platform/clock';
import { endSessionsByStaff } from '../../domain/sessions.decider';
import { RefreshTokens } from '../../infrastructure/sessions/refresh-tokens';
import { UserSessions } from '../../infrastructure/sessions/user-sessions';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { EndClientSessionsCommand } from './end-client-sessions.command';

/**
 * An admin ends every session of a client (ADR 0099): the event records why in the activity log, and in the same
 * transaction the sessions end, marked with the code that tells the client why at their next request.
 */
@CommandHandler(EndClientSessionsCommand)
export class EndClientSessionsHandler implements ICommandHandler<EndClientSessionsCommand, { ended: number }> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly refreshTokens: RefreshTokens,
    private readonly sessions: UserSessions,
    private readonly clock: Clock,
  ) {}

  async execute({ actor, userUuid, request, context }: EndClientSessionsCommand): Promise<{ ended: number }> {
    const sessionCount = await this.refreshTokens.liveSessionCount(userUuid, this.clock.now());
    let ended = 0;
    await this.pipeline.run(
      userCommand(
        userUuid,
        context,
        (user, { at }) =>
          endSessionsByStaff({ actor, reason: request.reason, note: request.note ?? null, sessionCount, at }, user),
        async (tx, events, { at }) => {
          if (events.length === 0) return;
          const familyIds = await this.refreshTokens.endSessionsForStaff(tx.manager, userUuid, at);
          await this.sessions.markEndedByStaff(
            tx.manager,
            userUuid,
            familyIds,
            STAFF_SESSION_END_CODES[request.reason],
            at,
          );
          ended = familyIds.length;
        },
      ),
    );
    return { ended };
  }
}
