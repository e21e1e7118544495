import {
  checkNoteText,
  checkRequired,
  firstIssue,
  formatErrorMessage,
  keptOnOneLine,
  type Note,
  type User,
} from '@kupa/proto';
import DeleteIcon from '@mui/icons-material/Delete';
import {
  Alert,
  Box,
  Button,
  CircularProgress,
  IconButton,
  List,
  ListItem,
  ListItemText,
  TextField,
  Tooltip,
  Typography,
} from '@mui/material';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { Confirm, type RaRecord, useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import { type KupaDataProvider } from '../providers/data-provider';
import { EmptyState } from '../shared/empty-state';
import { Isolated, useRichTranslate } from '../shared/rich-translate';
import { useCommand } from '../shared/use-command';
import { useLang } from '../shared/use-lang';

type LoadState = { status: 'loading' } | { status: 'failed' } | { status: 'ready'; notes: Note[] };

function useNotes(userUuid: string) {
  const dataProvider = useDataProvider<KupaDataProvider>();
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const reload = useCallback(async () => {
    try {
      const notes = await dataProvider.getNotes(userUuid);
      setState({ status: 'ready', notes });
    } catch {
      setState({ status: 'failed' });
    }
  }, [dataProvider, userUuid]);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { state, reload };
}

function formatDate(value: string, lang: string): string {
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return keptOnOneLine(
    date.toLocaleString(lang === 'he' ? 'he-IL' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short' }),
  );
}

/**
 * Staff notes about a client: read, add, delete (after a confirmation). Every failure shows the notes screen's own
 * message (`error.notes.failed`, "an error occurred, try later") rather than a raw server text.
 */
export function NotesTab() {
  const record = useRecordContext<User & RaRecord>();
  const userUuid = record?.userUuid ?? '';
  const translate = useTranslate();
  const richTranslate = useRichTranslate();
  const lang = useLang();
  const dataProvider = useDataProvider<KupaDataProvider>();
  const { state, reload } = useNotes(userUuid);
  const { run, pending } = useCommand();
  const [text, setText] = useState('');
  const [textError, setTextError] = useState<string | null>(null);
  const [toDelete, setToDelete] = useState<Note | null>(null);
  const failureMessage = formatErrorMessage('error.notes.failed', lang);

  if (!record) return null;

  const add = async (event: FormEvent) => {
    event.preventDefault();
    // Blank is "required"; too long is refused with the catalogue's message, never cut (the API holds the same rule).
    const issue = firstIssue(text, checkRequired, checkNoteText);
    setTextError(issue ? formatErrorMessage(issue.error, lang, issue.params) : null);
    if (issue) return;
    const created = await run(() => dataProvider.addNote(userUuid, text.trim()), {
      successMessage: 'kupa.clients.notes.added',
      failureMessage,
      refresh: false,
    });
    if (created !== undefined) {
      setText('');
      await reload();
    }
  };

  const confirmDelete = async () => {
    const note = toDelete;
    setToDelete(null);
    if (!note) return;
    await run(() => dataProvider.deleteNote(note.userUuid, note.id), {
      successMessage: 'kupa.clients.notes.deleted',
      failureMessage,
      refresh: false,
    });
    await reload();
  };

  return (
    <Box data-testid="client-notes" sx={{ maxWidth: 720 }}>
      <Box component="form" noValidate onSubmit={add} sx={{ display: 'flex', gap: 1, alignItems: 'flex-start', mb: 2 }}>
        <TextField
          multiline
          minRows={2}
          fullWidth
          label={translate('kupa.clients.notes.new_note')}
          value={text}
          onChange={(event) => setText(event.target.value)}
          error={textError !== null}
          helperText={textError ?? undefined}
          slotProps={{ htmlInput: { dir: 'auto', 'data-testid': 'note-input' } }}
        />
        <Button
          type="submit"
          variant="contained"
          disabled={pending}
          data-testid="note-add"
          sx={{ whiteSpace: 'nowrap' }}
        >
          {translate('kupa.clients.notes.add')}
        </Button>
      </Box>

      {state.status === 'loading' ? <CircularProgress size={24} /> : null}
      {state.status === 'failed' ? (
        <Alert severity="error" data-testid="notes-error">
          {failureMessage}
        </Alert>
      ) : null}
      {state.status === 'ready' && state.notes.length === 0 ? (
        <EmptyState testId="notes-empty" title={translate('kupa.clients.notes.empty')} />
      ) : null}
      {state.status === 'ready' && state.notes.length > 0 ? (
        <List data-testid="notes-list">
          {state.notes.map((note) => (
            <ListItem
              key={note.id}
              divider
              data-testid="note-item"
              data-id={note.id}
              secondaryAction={
                <Tooltip title={translate('kupa.clients.notes.delete')}>
                  <IconButton
                    edge="end"
                    aria-label={translate('kupa.clients.notes.delete')}
                    data-testid="note-delete"
                    onClick={() => setToDelete(note)}
                  >
                    <DeleteIcon />
                  </IconButton>
                </Tooltip>
              }
            >
              <ListItemText
                primary={
                  <Typography dir="auto" sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                    {note.text}
                  </Typography>
                }
                secondary={
                  <span data-testid="note-byline">
                    {richTranslate('kupa.clients.notes.by', {
                      name: <Isolated testId="note-author">{note.createdBy?.name ?? ''}</Isolated>,
                    })}
                    {' · '}
                    <bdi>{formatDate(note.createdAt, lang)}</bdi>
                  </span>
                }
              />
            </ListItem>
          ))}
        </List>
      ) : null}

      <Confirm
        isOpen={toDelete !== null}
        title="kupa.clients.notes.delete_title"
        content="kupa.clients.notes.delete_content"
        onConfirm={confirmDelete}
        onClose={() => setToDelete(null)}
      />
    </Box>
  );
}
