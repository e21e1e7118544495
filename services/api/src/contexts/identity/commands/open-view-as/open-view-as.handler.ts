import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { JwtService } from '@nestjs/jwt';
import { randomUUID } from 'node:crypto';
import { LIMITS } from '@kupa/proto';
import { type AccessTokenPayload, ActorLookup } from '../../../../platform/auth';
import { CommandPipeline } from '../../../../platform/commands';
import { recordViewAs } from '../../domain/user.decider';
import { userCommand } from '../../infrastructure/streams/user-streams';
import { OpenViewAsCommand, type ViewAsOpened } from './open-view-as.command';

/**
 * Staff open a read-only view of a client's portal (docs/adr/0092-refund-to-balance-and-view-as.md): the opening is
 * recorded under the client, then a short access token is signed with the client as subject and the staff member as
 * `vab`. It names no session (`sid`), so nothing can refresh it, and the client's own sessions are untouched; it
 * carries the client's session version, so a password change of the client ends it like any other token.
 */
@CommandHandler(OpenViewAsCommand)
export class OpenViewAsHandler implements ICommandHandler<OpenViewAsCommand, ViewAsOpened> {
  constructor(
    private readonly pipeline: CommandPipeline,
    private readonly actors: ActorLookup,
    private readonly jwt: JwtService,
  ) {}

  async execute({ actor, userUuid, context }: OpenViewAsCommand): Promise<ViewAsOpened> {
    const viewId = randomUUID();
    let openedAt = new Date();
    await this.pipeline.run(
      userCommand(userUuid, context, (user, { at }) => {
        openedAt = at;
        return recordViewAs({ actor, viewId, page: null, at }, user);
      }),
    );
    const client = await this.actors.findByUuid(userUuid);
    if (!client) throw new Error('the user just viewed has no actor record');
    const payload: AccessTokenPayload = {
      sub: client.userUuid,
      email: client.email,
      role: client.role,
      sv: client.sessionVersion,
      vab: actor.userUuid,
      vid: viewId,
    };
    const ttlSeconds = LIMITS.viewAsTokenTtlSeconds;
    return {
      accessToken: this.jwt.sign(payload, { expiresIn: ttlSeconds }),
      viewId,
      expiresAt: new Date(openedAt.getTime() + ttlSeconds * 1000).toISOString(),
    };
  }
}
