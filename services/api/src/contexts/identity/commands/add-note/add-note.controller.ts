import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags, ApiCreatedResponse } from '@nestjs/swagger';
import type { Note } from '@kupa/proto';
import { ReqContext, type RequestContext, Roles } from '../../../../platform/auth';
import { UserUuidPipe } from '../../infrastructure/http/params';
import { AddNoteCommand } from './add-note.command';
import { AddNoteRequestDto } from './add-note.request.dto';
import { ApiErrors, ApiUuidParam } from '../../../../platform/http';
import { NoteDto } from '../../infrastructure/http/identity.responses';

@ApiTags('notes')
@ApiBearerAuth()
@Controller('users')
export class AddNoteController {
  constructor(private readonly commands: CommandBus) {}

  @Post(':uuid/notes')
  @ApiUuidParam('uuid')
  @ApiCreatedResponse({ type: NoteDto })
  @ApiErrors(400, 401, 403, 404)
  @Roles('ADMIN', 'MANAGER')
  @HttpCode(201)
  add(
    @Param('uuid', UserUuidPipe) userUuid: string,
    @Body() request: AddNoteRequestDto,
    @ReqContext() context: RequestContext,
  ): Promise<Note> {
    return this.commands.execute(new AddNoteCommand(userUuid, request.text, context));
  }
}
