import { Controller, Delete, HttpCode, Param } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiNoContentResponse } from '@nestjs/swagger';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { NoteIdPipe } from '../../infrastructure/http/params';
import { DeleteNoteCommand } from './delete-note.command';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';

@ApiTags('notes')
@ApiBearerAuth()
@Controller('users/notes')
export class DeleteNoteController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':noteId')
  @ApiUuidParam('noteId')
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(204)
  async delete(@Param('noteId', NoteIdPipe) noteId: string, @ReqContext() context: RequestContext): Promise<void> {
    await this.commands.execute(new DeleteNoteCommand(noteId, context));
  }
}
