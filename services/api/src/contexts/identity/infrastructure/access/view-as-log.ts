import { Injectable } from '@nestjs/common';
import { type Actor, ViewAsRecorder } from '../../../../platform/auth';
import { CommandPipeline } from '../../../../platform/commands';
import { recordViewAs } from '../../domain/user.decider';
import { userCommand } from '../streams/user-streams';

/** Each request made with a view-as token is one `UserViewedByStaff` under the client, the staff member its actor. */
@Injectable()
export class ViewAsLog extends ViewAsRecorder {
  constructor(private readonly pipeline: CommandPipeline) {
    super();
  }

  async recordRequest(actor: Actor, page: string, ip: string | null, correlationId: string): Promise<void> {
    const view = actor.viewAs;
    if (!view) return;
    await this.pipeline.run(
      userCommand(actor.userUuid, { actor: view.staff, ip, correlationId }, (user, { at }) =>
        recordViewAs({ actor: view.staff, viewId: view.viewId, page, at }, user),
      ),
    );
  }
}
