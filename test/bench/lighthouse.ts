/**
 * Lighthouse's mobile performance score of the client portal, as a phone on a slow network would load it: `/login`
 * signed out, then the signed-in pages of `SIGNED_IN_PAGES`. Lighthouse drives Debian's Chromium through puppeteer-core (no browser is
 * downloaded); its default mobile settings apply (a mid-range phone's screen, simulated slow 4G and a four times
 * slower CPU), so the figures compare with what Lighthouse reports anywhere.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer, { type Page } from 'puppeteer-core';
import { round } from './stats.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** When set, each page's whole Lighthouse report (every audit, the main thread's breakdown) is written there. */
const REPORT_DIR = process.env.BENCH_LIGHTHOUSE_REPORT_DIR;

interface PageFigures {
  score: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  totalBlockingTimeMs: number;
  cumulativeLayoutShift: number;
  speedIndexMs: number;
  /**
   * Lighthouse's own measure of the host's CPU speed (its `benchmarkIndex`; higher is faster). The simulated phone
   * is four times slower than the host, so the score follows the host: this says how fast the host was that run.
   */
  hostBenchmarkIndex: number;
}

async function audit(page: Page, url: string): Promise<PageFigures> {
  // The signed-in session lives in the browser's storage: Lighthouse must not clear it before loading the page.
  const result = await lighthouse(
    url,
    { output: 'json', onlyCategories: ['performance'], disableStorageReset: true, logLevel: 'error' },
    undefined,
    page,
  );
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    writeFileSync(join(REPORT_DIR, `${new URL(url).pathname.slice(1) || 'root'}.json`), result.report as string);
  }
  const { categories, audits } = result.lhr;
  const numeric = (id: string): number => round(audits[id]?.numericValue ?? Number.NaN, 0);
  return {
    score: Math.round((categories.performance?.score ?? 0) * 100),
    firstContentfulPaintMs: numeric('first-contentful-paint'),
    largestContentfulPaintMs: numeric('largest-contentful-paint'),
    totalBlockingTimeMs: numeric('total-blocking-time'),
    cumulativeLayoutShift: round(audits['cumulative-layout-shift']?.numericValue ?? Number.NaN, 3),
    speedIndexMs: numeric('speed-index'),
    hostBenchmarkIndex: round(result.lhr.environment.benchmarkIndex, 0),
  };
}

/**
 * The signed-in pages measured, each named by its path: the payments list (the busiest first screen) and the packages
 * (the page a new client opens first, where the trial offer arrives above the list; ADR 0079).
 */
export const SIGNED_IN_PAGES = ['payments', 'packages'] as const;

export async function measureLighthouse(
  baseUrl: string,
  client: { email: string; password: string },
): Promise<Record<string, PageFigures>> {
  const browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // As root (CI, this machine) Chromium runs only without its sandbox.
    args: ['--no-sandbox'],
  });
  try {
    const page = await browser.newPage();
    const login = await audit(page, `${baseUrl}/login`);
    await page.goto(`${baseUrl}/login`, { waitUntil: 'networkidle0' });
    await page.type('[data-testid="login-email"] input, input[data-testid="login-email"]', client.email);
    await page.type('[data-testid="login-password"] input, input[data-testid="login-password"]', client.password);
    await page.click('[data-testid="login-submit"]');
    await page.waitForSelector('[data-testid="balance"]', { timeout: 60_000 });
    const figures: Record<string, PageFigures> = { login };
    for (const path of SIGNED_IN_PAGES) figures[path] = await audit(page, `${baseUrl}/${path}`);
    return figures;
  } finally {
    await browser.close();
  }
}
