import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';

/** The sandbox setup page's test cards (docs/adr/0087-sandbox-saved-cards.md). */
export type SandboxTestCard = 'pays' | 'insufficient-funds' | 'authentication';

/**
 * Save a card on My profile: the sandbox's setup page opens in the same tab (no card field, no script), the test card
 * is chosen and saved, and the client is sent back to My profile. `onSetupPage` may look at the page first.
 */
export async function saveSandboxCard(
  page: Page,
  base: string,
  card: SandboxTestCard,
  onSetupPage?: (page: Page) => Promise<void>,
): Promise<void> {
  await page.getByTestId('saved-card-setup').click();
  await page.waitForURL(/\/api\/sandbox\/card\/setups\/cs_test_sandbox_\w+\?signature=/);
  assert.equal(await page.locator('input:not([type="radio"])').count(), 0, 'the setup page asks for no card details');
  assert.equal(await page.locator('script').count(), 0, 'the setup page runs no script');
  await onSetupPage?.(page);
  await page.locator(`input[name="card"][value="${card}"]`).check();
  await page.locator('[data-action="save"]').click();
  await page.waitForURL(`${base}/my-profile?card=saved`);
}
