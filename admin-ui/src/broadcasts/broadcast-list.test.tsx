import { type BroadcastDetail, type BroadcastSummary } from '@kupa/proto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { json, mockFetch } from '../test/fetch-mock';
import { renderInAdmin, signInAs } from '../test/render-admin';
import { BroadcastList, filterOf, isReversed } from './broadcast-list';

const SUMMARY: BroadcastSummary = {
  id: 'b-1',
  status: 'SENDING',
  subjectHe: 'מבצע חורף',
  bodyHe: 'גוף',
  subjectEn: 'Winter sale',
  bodyEn: 'Body',
  filter: {},
  createdAt: '2026-11-29T10:00:00.000Z',
  createdBy: 'admin-1',
  recipients: 4,
  queued: 1,
  sent: 1,
  skipped: 1,
  failed: 1,
};

const DETAIL: BroadcastDetail = {
  ...SUMMARY,
  recipientList: [
    { userUuid: 'u-1', email: 'dana@example.com', fullName: 'Dana Levi', language: 'he', status: 'SENT' },
    {
      userUuid: 'u-2',
      email: 'omer@example.com',
      fullName: 'Omer Cohen',
      language: 'en',
      status: 'SKIPPED_UNSUBSCRIBED',
    },
    { userUuid: 'u-3', email: 'noa@example.com', fullName: 'Noa Bar', language: 'en', status: 'FAILED' },
  ],
};

/** Pastes rather than types: typing four fields key by key is slow on a busy machine. */
async function fill(user: ReturnType<typeof userEvent.setup>, testId: string, text: string) {
  await user.click(screen.getByTestId(testId));
  await user.paste(text);
}

function renderAs(lang: 'he' | 'en' = 'en') {
  signInAs('ADMIN');
  return renderInAdmin(<BroadcastList />, { resource: 'broadcasts', withAuth: true, lang, notifications: true });
}

describe('broadcasts (ADR 0091)', () => {
  it('leaves empty filter fields out, so an empty form means every client', () => {
    expect(filterOf('  ', [], [])).toEqual({});
    expect(filterOf(' dana ', ['ACTIVE'], ['CLIENT'])).toEqual({
      keyWord: 'dana',
      statuses: ['ACTIVE'],
      roles: ['CLIENT'],
    });
  });

  it('sends registration days as instants from the first local midnight to the end of the last day', () => {
    const filter = filterOf('', [], [], { from: '2026-01-01', to: '2026-01-31' });
    expect(filter.registrationDate).toEqual({
      from: new Date('2026-01-01T00:00:00.000').toISOString(),
      to: new Date('2026-01-31T23:59:59.999').toISOString(),
    });
    expect(filterOf('', [], [], { from: '', to: '2026-01-31' }).registrationDate).toEqual({
      to: new Date('2026-01-31T23:59:59.999').toISOString(),
    });
    expect(filterOf('', [], [], { from: '', to: '' })).toEqual({});
    expect(isReversed({ from: '2026-02-01', to: '2026-01-31' })).toBe(true);
    expect(isReversed({ from: '2026-01-31', to: '2026-01-31' })).toBe(false);
    expect(isReversed({ from: '2026-02-01', to: '' })).toBe(false);
  });

  it('lists each broadcast with its status and progress, and opens its recipients with their status', async () => {
    mockFetch({
      'GET /api/broadcasts': () => json(200, [SUMMARY]),
      'GET /api/broadcasts/b-1': () => json(200, DETAIL),
    });
    renderAs();
    const row = await screen.findByTestId('broadcast-b-1');
    expect(row).toHaveTextContent('Winter sale');
    expect(within(row).getByTestId('broadcast-status')).toHaveTextContent('Sending');
    expect(within(row).getByTestId('broadcast-counts')).toHaveTextContent(
      '4 recipients: 1 sent, 1 skipped, 1 failed, 1 waiting',
    );
    // Its activity: the log filtered by its id.
    const activity = within(row).getByTestId('broadcast-activity');
    expect(activity).toHaveTextContent('Activity');
    expect(decodeURIComponent(activity.getAttribute('href') ?? '')).toContain(
      '/activity-log?filter={"targetAndParentIds":"b-1"}',
    );
    await userEvent.setup().click(within(row).getByTestId('broadcast-open'));
    expect(await screen.findByTestId('recipient-u-2')).toHaveTextContent('Skipped: unsubscribed');
    expect(screen.getByTestId('recipient-u-1')).toHaveTextContent('Sent');
    expect(screen.getByTestId('recipient-u-3')).toHaveTextContent('Failed');
  });

  it('shows a progress bar while a broadcast sends, and none once it is done', async () => {
    const done: BroadcastSummary = { ...SUMMARY, id: 'b-2', status: 'DONE', queued: 0, sent: 2 };
    mockFetch({ 'GET /api/broadcasts': () => json(200, [SUMMARY, done]) });
    renderAs();
    expect(within(await screen.findByTestId('broadcast-b-1')).getByRole('progressbar')).toBeInTheDocument();
    const finished = screen.getByTestId('broadcast-b-2');
    expect(within(finished).getByTestId('broadcast-status')).toHaveTextContent('Done');
    expect(within(finished).queryByRole('progressbar')).toBeNull();
  });

  // Two dialogs and four fields: slower than the default allows when the machine is busy.
  it(
    'previews the count, asks before sending naming it, and sends the content with the filter',
    { timeout: 60_000 },
    async () => {
      let sent = false;
      const { calls } = mockFetch({
        'GET /api/broadcasts': () => json(200, sent ? [SUMMARY] : []),
        'POST /api/broadcasts/preview': () => json(200, { recipients: 12, unsubscribed: 2 }),
        'POST /api/broadcasts': () => {
          sent = true;
          return json(201, SUMMARY);
        },
      });
      const user = userEvent.setup();
      renderAs();
      await screen.findByTestId('broadcasts-empty');
      await user.click(screen.getByTestId('broadcasts-compose'));
      await fill(user, 'broadcast-subjectHe', 'מבצע');
      await fill(user, 'broadcast-bodyHe', 'גוף');
      await fill(user, 'broadcast-subjectEn', 'Sale');
      await fill(user, 'broadcast-bodyEn', 'Body');
      await fill(user, 'broadcast-keyWord', 'dana');
      // A reversed registration range is told on the form, and nothing is counted for it.
      fireEvent.change(screen.getByTestId('broadcast-registered-from'), { target: { value: '2026-02-01' } });
      fireEvent.change(screen.getByTestId('broadcast-registered-to'), { target: { value: '2026-01-31' } });
      expect(screen.getByText('The last day is before the first')).toBeInTheDocument();
      expect(screen.getByTestId('broadcast-preview-button')).toBeDisabled();
      fireEvent.change(screen.getByTestId('broadcast-registered-from'), { target: { value: '' } });
      fireEvent.change(screen.getByTestId('broadcast-registered-to'), { target: { value: '' } });
      // Nothing is sent before the count is known.
      expect(screen.getByTestId('broadcast-send')).toBeDisabled();
      await user.click(screen.getByTestId('broadcast-preview-button'));
      expect(await screen.findByTestId('broadcast-preview')).toHaveTextContent('12 clients match; 2 of them');
      expect(calls.find((call) => call.url === '/api/broadcasts/preview')?.body).toEqual({ keyWord: 'dana' });

      await user.click(screen.getByTestId('broadcast-send'));
      expect(screen.getByTestId('broadcast-confirm-text')).toHaveTextContent('to 10 clients');
      expect(calls.some((call) => call.method === 'POST' && call.url === '/api/broadcasts')).toBe(false);
      await user.click(screen.getByTestId('broadcast-confirm'));
      await waitFor(() => expect(screen.queryByTestId('broadcast-confirm')).toBeNull());
      expect(calls.find((call) => call.method === 'POST' && call.url === '/api/broadcasts')?.body).toEqual({
        subjectHe: 'מבצע',
        bodyHe: 'גוף',
        subjectEn: 'Sale',
        bodyEn: 'Body',
        filter: { keyWord: 'dana' },
      });
      expect(await screen.findByTestId('broadcast-b-1')).toBeInTheDocument();
    },
  );

  it('speaks Hebrew', async () => {
    mockFetch({ 'GET /api/broadcasts': () => json(200, [SUMMARY]) });
    renderAs('he');
    const row = await screen.findByTestId('broadcast-b-1');
    expect(row).toHaveTextContent('מבצע חורף');
    expect(within(row).getByTestId('broadcast-status')).toHaveTextContent('בשליחה');
  });
});
