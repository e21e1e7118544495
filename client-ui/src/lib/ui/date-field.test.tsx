import { useState } from 'react';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppThemeProvider } from '../theme/app-theme-provider';
import { useLangStore } from '../stores/lang-store';
import { DateField } from './date-field';

function Harness({ initial = '', min }: { initial?: string; min?: string }) {
  const [value, setValue] = useState(initial);
  return (
    <AppThemeProvider>
      <DateField label="From" value={value} onChange={setValue} min={min} testId="from" />
      <output data-testid="chosen">{value}</output>
    </AppThemeProvider>
  );
}

describe('date field', () => {
  it("writes the date and names the calendar in the page's language, not the browser's", async () => {
    // jsdom's browser language is English; the page is Hebrew.
    expect(navigator.language.startsWith('en')).toBe(true);
    useLangStore.getState().setLang('he');
    const user = userEvent.setup();
    render(<Harness initial="2026-03-04" />);
    const field = screen.getByTestId('from');
    expect(field).toHaveValue(
      new Intl.DateTimeFormat('he-IL', { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date('2026-03-04T00:00:00Z'),
      ),
    );
    expect((field as HTMLInputElement).value).toMatch(/מרץ|במרץ/);

    await user.click(field);
    const calendar = await screen.findByTestId('from-calendar');
    expect(within(calendar).getByRole('heading')).toHaveTextContent('מרץ 2026');
    expect(within(calendar).getByRole('button', { pressed: true })).toHaveAccessibleName(/4 במרץ 2026/);
  });

  it('chooses a day, moves between months and keeps to the bounds', async () => {
    useLangStore.getState().setLang('en');
    const user = userEvent.setup();
    render(<Harness initial="2026-03-04" min="2026-03-02" />);
    await user.click(screen.getByTestId('from'));
    let calendar = await screen.findByTestId('from-calendar');
    expect(within(calendar).getByRole('heading')).toHaveTextContent('March 2026');
    expect(calendar.querySelector('[data-day="2026-03-01"]')).toBeDisabled();

    await user.click(within(calendar).getByRole('button', { name: 'Next month' }));
    expect(within(calendar).getByRole('heading')).toHaveTextContent('April 2026');
    await user.click(calendar.querySelector('[data-day="2026-04-15"]') as HTMLElement);
    expect(screen.getByTestId('chosen')).toHaveTextContent('2026-04-15');
    expect(screen.getByTestId('from')).toHaveValue('Apr 15, 2026');

    await user.click(screen.getByRole('button', { name: 'Clear the date' }));
    expect(screen.getByTestId('chosen')).toHaveTextContent('');
    expect(screen.getByTestId('from')).toHaveValue('');
    calendar = screen.queryByTestId('from-calendar') as HTMLElement;
    expect(calendar).toBeNull();
  });
});
