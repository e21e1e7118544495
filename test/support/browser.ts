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

/** The pages open now, in every context of every browser launched here, for the failure report below. */
const openPages = new Set<Page>();

/** How much of a page's visible text a failure report prints: enough to see which screen and which message. */
const FAILURE_TEXT_MAX_CHARACTERS = 2000;
/** How long a failure report waits for each page's screenshot and text: a page that hangs must not hang the run. */
const FAILURE_CAPTURE_TIMEOUT_MS = 10_000;

/**
 * When a journey's test fails, says what each open page showed: its address and visible text in the log (CI keeps no
 * files) and a full-page screenshot in test/artifacts/failure-<test>-<n>.png. A click that opened nothing, a dialog
 * that never came: the timeout alone does not say what the page showed instead.
 */
afterEach(async (t) => {
  // Node 20.12+ and 22 set `passed` on a test's context; its types do not declare it yet.
  if ((t as { passed?: boolean }).passed !== false) return;
  let index = 0;
  for (const page of openPages) {
    index += 1;
    if (page.isClosed()) continue;
    const name = `failure-${t.name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 80)}-${String(index)}`;
    try {
      mkdirSync(ARTIFACTS_DIR, { recursive: true });
      const path = join(ARTIFACTS_DIR, `${name}.png`);
      await page.screenshot({ path, fullPage: true, timeout: FAILURE_CAPTURE_TIMEOUT_MS });
      const text = await page.locator('body').innerText({ timeout: FAILURE_CAPTURE_TIMEOUT_MS });
      console.log(
        `"${t.name}" failed; page ${String(index)} at ${page.url()} (screenshot ${path}) showed: ` +
          text.replace(/\s+/g, ' ').slice(0, FAILURE_TEXT_MAX_CHARACTERS),
      );
    } catch (error) {
      console.log(`"${t.name}" failed; page ${String(index)} at ${page.url()} could not be captured: ${String(error)}`);
    }
  }
});

function watchOpenPages(context: BrowserContext): void {
  context.on('page', (page) => {
    openPages.add(page);
    page.on('close', () => openPages.delete(page));
  });
}

function watchContentSecurityPolicy(context: BrowserContext): void {
  context.on('console', (message) => {
    if (/content security policy/i.test(message.text())) {
      cspViolations.push(`${message.location().url}: ${message.text()}`);
    }
  });
}

/**
 * Debian's Chromium; every context it opens (and so every page) is watched for Content Security Policy refusals, and
 * its pages are described when a test fails.
 */
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
    watchOpenPages(context);
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
