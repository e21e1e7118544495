import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'node:test';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, never a downloaded browser build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS_DIR = join(import.meta.dirname, '..', 'artifacts');

/** Console messages about the Content Security Policy seen since the last journey step ended. */
const cspViolations: string[] = [];

/**
 * Fails the journey (`it`) during which any page logged a Content Security Policy refusal: the API sends a strict
 * policy, and a UI that needs more than it allows is broken for users even when the journey's clicks still pass.
 * Registered at the top level, so it applies to every test of each journey file that imports this module.
 */
afterEach(() => {
  if (cspViolations.length === 0) return;
  const seen = cspViolations.splice(0);
  throw new Error(`The page logged Content Security Policy refusals:\n${seen.join('\n')}`);
});

function watchContentSecurityPolicy(context: BrowserContext): void {
  context.on('console', (message) => {
    if (/content security policy/i.test(message.text())) {
      cspViolations.push(`${message.location().url}: ${message.text()}`);
    }
  });
}

/** Debian's Chromium; every context it opens (and so every page) is watched for Content Security Policy refusals. */
export async function launchBrowser(): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // The machine's network is closed: without these, Chromium keeps trying to reach update and sync services.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  // `browser.newPage()` opens its context through `newContext` too, so this one wrapper covers both.
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContentSecurityPolicy(context);
    return context;
  };
  return browser;
}

/** Saves a full-page screenshot as a test artifact (test/artifacts/<name>.png). */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const path = join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}
