import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { type RecordedCall } from './fetch-mock';

type User = ReturnType<typeof userEvent.setup>;

export interface SentSort {
  id: string;
  desc: boolean;
}

/** The body of a `POST /api/<resource>/search` call as a list sends it. */
export type SearchBody = Record<string, unknown> & { page: number; size: number; sorts: SentSort[] };

export function searchBodyOf(call: RecordedCall): SearchBody {
  return call.body as SearchBody;
}

export function lastSearchBody(calls: RecordedCall[]): SearchBody {
  return searchBodyOf(calls[calls.length - 1]);
}

/**
 * A console address that opens a list with the named filters shown. Filters that hide behind "Add filter" are opened
 * through the address, as a link or a reload would, which spares each test react-admin's own menu.
 */
export function listPathShowing(filterSources: string[]): string {
  const displayedFilters = JSON.stringify(Object.fromEntries(filterSources.map((source) => [source, true])));
  return `/admin?${new URLSearchParams({ displayedFilters })}`;
}

/** Opens the multiple select with the given label, picks the named options and closes its menu. */
export async function pickOptions(user: User, label: string, options: string[]): Promise<void> {
  await user.click(screen.getByRole('combobox', { name: label }));
  const listbox = await screen.findByRole('listbox');
  for (const option of options) await user.click(within(listbox).getByRole('option', { name: option }));
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
}

/** The titles of the list's sortable columns: a column's title is a button exactly when the list can sort by it. */
export function sortableColumnTitles(): string[] {
  return sortButtons().map((button) => button.textContent ?? '');
}

function sortButtons(): HTMLElement[] {
  const header = screen.getAllByRole('rowgroup')[0];
  return within(header).getAllByRole('button');
}

/**
 * Clicks each sortable column title in turn and answers, per title, the sorts of the search that click sent. A plain
 * click is enough here: react-admin sorts on the click, and the pointer's hover would only open tooltips.
 */
export async function sortsSentByEachColumn(calls: RecordedCall[]): Promise<Record<string, SentSort[]>> {
  const sent: Record<string, SentSort[]> = {};
  for (const title of sortableColumnTitles()) {
    const before = calls.length;
    const button = sortButtons().find((candidate) => candidate.textContent === title);
    fireEvent.click(button as HTMLElement);
    await waitFor(() => expect(calls.length).toBeGreaterThan(before));
    sent[title] = lastSearchBody(calls).sorts;
  }
  return sent;
}

/** Every sort id any of the calls sent. */
export function sentSortIds(calls: RecordedCall[]): string[] {
  return [...new Set(calls.flatMap((call) => searchBodyOf(call).sorts.map((sort) => sort.id)))];
}
