import { formatErrorMessage, LIMITS } from '@kupa/proto';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { CLIENT } from '../test/fixtures';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { NotesTab } from './notes-tab';

const called = {
  id: 'n-1',
  userUuid: 'u-1',
  text: 'Called about the renewal',
  createdAt: '2026-03-01T10:00:00Z',
  createdBy: { id: 's-1', name: 'Avi Admin' },
};
const emailed = {
  ...called,
  id: 'n-2',
  text: 'Invoice\nsent',
  createdAt: '2026-03-02T10:00:00Z',
  createdBy: { id: 's-2', name: 'Mira Manager' },
};

const NOTES_URL = '/api/users/u-1/notes';

function renderNotes() {
  return renderInAdmin(<NotesTab />, { resource: 'clients', record: CLIENT, lang: 'en', notifications: true });
}

const shownNotes = () => screen.getAllByTestId('note-item').map((item) => item.getAttribute('data-id'));

beforeEach(() => signInAs('ADMIN'));

describe("a client's notes tab", () => {
  it("lists the client's notes with their text and author", async () => {
    const { calls } = mockFetch({ [`GET ${NOTES_URL}`]: () => json(200, [emailed, called]) });
    renderNotes();

    await waitFor(() => expect(shownNotes()).toEqual(['n-2', 'n-1']));
    const first = within(screen.getAllByTestId('note-item')[0]);
    expect(first.getByText(/Invoice/).textContent).toBe('Invoice\nsent');
    // The author's name is isolated inside the sentence, so a Hebrew name keeps its order in English and back.
    expect(first.getByTestId('note-byline').textContent).toMatch(/^By Mira Manager · /);
    expect(first.getByTestId('note-author').tagName).toBe('BDI');
    expect(first.getByTestId('note-author')).toHaveTextContent('Mira Manager');
    expect(within(screen.getAllByTestId('note-item')[1]).getByText('Called about the renewal')).toBeVisible();
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([`GET ${NOTES_URL}`]);
  });

  it('says so when the client has no notes', async () => {
    mockFetch({ [`GET ${NOTES_URL}`]: () => json(200, []) });
    renderNotes();

    expect(await screen.findByTestId('notes-empty')).toHaveTextContent('No notes yet.');
    expect(screen.queryByTestId('note-item')).not.toBeInTheDocument();
  });

  it('adds a note with POST, then shows the list as the server now holds it', async () => {
    const { calls } = mockFetch({
      [`GET ${NOTES_URL}`]: [() => json(200, [called]), () => json(200, [emailed, called])],
      [`POST ${NOTES_URL}`]: () => json(201, emailed),
    });
    const user = userEvent.setup();
    renderNotes();
    await waitFor(() => expect(shownNotes()).toEqual(['n-1']));

    // A blank note is refused on the form, with the shared "required" message, and never sent.
    await user.type(screen.getByTestId('note-input'), '   ');
    await user.click(screen.getByTestId('note-add'));
    expect(await screen.findByText(formatErrorMessage('error.validation.required', 'en'))).toBeVisible();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);

    await user.clear(screen.getByTestId('note-input'));
    await user.type(screen.getByTestId('note-input'), '  Invoice{Enter}sent ');
    await user.click(screen.getByTestId('note-add'));

    await waitFor(() => expect(shownNotes()).toEqual(['n-2', 'n-1']));
    expect(calls.map((call) => [call.method, call.url, call.body])).toEqual([
      ['GET', NOTES_URL, undefined],
      ['POST', NOTES_URL, { text: 'Invoice\nsent' }],
      ['GET', NOTES_URL, undefined],
    ]);
    expect(screen.getByTestId('note-input')).toHaveValue('');
    expect(await screen.findByText('The note was added')).toBeVisible();
  });

  it('refuses a note over the limit with the catalogue message, keeping every character typed', async () => {
    const { calls } = mockFetch({ [`GET ${NOTES_URL}`]: () => json(200, [called]) });
    const user = userEvent.setup();
    renderNotes();
    await waitFor(() => expect(shownNotes()).toEqual(['n-1']));

    const tooLong = 'ש'.repeat(LIMITS.noteMaxLength + 1);
    const input = screen.getByTestId('note-input');
    await user.click(input);
    await user.paste(tooLong);
    expect(input).toHaveValue(tooLong);
    await user.click(screen.getByTestId('note-add'));
    const message = formatErrorMessage('error.validation.max.length', 'en', { max: LIMITS.noteMaxLength });
    expect(await screen.findByText(message)).toBeVisible();
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(0);
    expect(input).toHaveValue(tooLong);
  });

  it('isolates a Hebrew author in the English byline and wraps a long unbroken note', async () => {
    const hebrew = { ...called, text: 'x'.repeat(200), createdBy: { id: 's-3', name: 'אבי כהן' } };
    mockFetch({ [`GET ${NOTES_URL}`]: () => json(200, [hebrew]) });
    renderNotes();
    const author = await screen.findByTestId('note-author');
    expect(author.tagName).toBe('BDI');
    expect(author).toHaveAttribute('dir', 'auto');
    expect(author).toHaveTextContent('אבי כהן');
    expect(getComputedStyle(screen.getByText('x'.repeat(200))).overflowWrap).toBe('anywhere');
  });

  it('deletes a note only after confirmation, then shows the list without it', async () => {
    const { calls } = mockFetch({
      [`GET ${NOTES_URL}`]: [() => json(200, [emailed, called]), () => json(200, [called])],
      'DELETE /api/users/u-1/notes/n-2': () => new Response(null, { status: 204 }),
    });
    const user = userEvent.setup();
    renderNotes();
    await waitFor(() => expect(shownNotes()).toEqual(['n-2', 'n-1']));

    // Cancelling the confirmation deletes nothing.
    await user.click(within(screen.getAllByTestId('note-item')[0]).getByTestId('note-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Delete this note?');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(0);

    await user.click(within(screen.getAllByTestId('note-item')[0]).getByTestId('note-delete'));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(shownNotes()).toEqual(['n-1']));
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      `GET ${NOTES_URL}`,
      'DELETE /api/users/u-1/notes/n-2',
      `GET ${NOTES_URL}`,
    ]);
    expect(await screen.findByText('The note was deleted')).toBeVisible();
  });

  it("shows the notes screen's own message when the notes cannot be read or a note cannot be added", async () => {
    const failure = () => json(500, { status: 500, error: 'error.internal.server.error', message: 'Boom' });
    mockFetch({ [`GET ${NOTES_URL}`]: failure, [`POST ${NOTES_URL}`]: failure });
    const user = userEvent.setup();
    renderNotes();

    const message = formatErrorMessage('error.notes.failed', 'en');
    expect(await screen.findByTestId('notes-error')).toHaveTextContent(message);

    await user.type(screen.getByTestId('note-input'), 'Call back');
    await user.click(screen.getByTestId('note-add'));
    // The toast repeats the notes message, and the typed text is kept so that nothing is lost.
    await waitFor(() => expect(screen.getAllByText(message)).toHaveLength(2));
    expect(screen.getByTestId('note-input')).toHaveValue('Call back');
  });
});
