import type { Locator, Page } from 'playwright-core';

/**
 * Types `text` into a console list's keyword search (`<list>-search`) and waits until the list shows exactly one row
 * (`<list>-row`) holding it: the search is debounced, so the rows of the unfiltered list are still there at first.
 * Answers that row.
 */
export async function onlyRowFound(page: Page, list: 'clients' | 'staff', text: string): Promise<Locator> {
  await page.getByTestId(`${list}-search`).fill(text);
  await page.waitForFunction(
    ({ rowTestId, wanted }) => {
      const rows = [...document.querySelectorAll(`[data-testid="${rowTestId}"]`)];
      return rows.length === 1 && (rows[0].textContent ?? '').includes(wanted);
    },
    { rowTestId: `${list}-row`, wanted: text },
  );
  return page.getByTestId(`${list}-row`).filter({ hasText: text });
}
