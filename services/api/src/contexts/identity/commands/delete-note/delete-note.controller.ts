import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { NoteIdPipe, UserUuidPipe } from '../../infrastructure/http/params';
import { DeleteNoteCommand } from './delete-note.command';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';

@ApiTags('notes')
@ApiBearerAuth()
@Controller('users')
export class DeleteNoteController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':uuid/notes/:noteId')
  @ApiUuidParam('uuid')
  @ApiUuidParam('noteId')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(204)
  async delete(
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Param('noteId', NoteIdPipe) noteId: string,
    @ReqContext() context: RequestContext,
  ): Promise<void> {
    await this.commands.execute(new DeleteNoteCommand(userUuid, noteId, context));
  }
}
