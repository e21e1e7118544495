import type { Page } from 'playwright-core';

export interface HorizontalOverflow {
  scrollWidth: number;
  innerWidth: number;
  /** The outermost elements that reach past either side of the viewport (at most five), to say where to look. */
  offenders: string[];
}

/**
 * Whether the document is wider than the viewport, so that it scrolls sideways (or, right to left, opens with its
 * start cut off). Answers null when it fits.
 */
export async function horizontalOverflow(page: Page): Promise<HorizontalOverflow | null> {
  // The callback declares no named functions: tsx would wrap them in a helper that exists only in Node.
  return page.evaluate(() => {
    const { scrollWidth } = document.documentElement;
    const { innerWidth } = window;
    if (scrollWidth <= innerWidth) return null;
    const outside = new Set<Element>();
    for (const element of document.body.querySelectorAll('*')) {
      const box = element.getBoundingClientRect();
      if (box.width > 0 && (box.right > innerWidth + 1 || box.left < -1)) outside.add(element);
    }
    const offenders: string[] = [];
    for (const element of outside) {
      if (element.parentElement && outside.has(element.parentElement)) continue;
      const testId = element.getAttribute('data-testid');
      const classes = [...element.classList].filter((name) => !name.startsWith('css-')).slice(0, 3);
      const box = element.getBoundingClientRect();
      offenders.push(
        `${element.tagName.toLowerCase()}${testId ? `[data-testid=${testId}]` : ''}` +
          `${classes.map((name) => `.${name}`).join('')} (${Math.round(box.left)}..${Math.round(box.right)})`,
      );
      if (offenders.length === 5) break;
    }
    return { scrollWidth, innerWidth, offenders };
  });
}

/**
 * Switches the emulated system colour scheme and waits until the page has followed it: both apps paint the body with
 * their palette's background (light or dark), and they apply a scheme change a moment after the media query fires.
 */
export async function showColorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.waitForFunction((wanted) => {
    const channels =
      getComputedStyle(document.body)
        .backgroundColor.match(/[\d.]+/g)
        ?.map(Number) ?? [];
    if (channels.length < 3) return false;
    const lightness = (channels[0] + channels[1] + channels[2]) / 3;
    return wanted === 'dark' ? lightness < 128 : lightness >= 128;
  }, scheme);
}

/**
 * Waits until the screen has stopped moving: no skeleton or progress indicator left and every finite CSS transition
 * or animation (a theme's colour change, a drawer sliding) finished, so that screenshots and colour-contrast checks
 * see the settled screen.
 */
export async function settle(page: Page): Promise<void> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  await page.waitForFunction(
    () =>
      document.querySelector('.MuiSkeleton-root, .MuiCircularProgress-root, .MuiLinearProgress-root') === null &&
      document
        .getAnimations()
        .every(
          (animation) => animation.playState !== 'running' || animation.effect?.getTiming().iterations === Infinity,
        ),
  );
  // Two frames, so that what React rendered last has been painted.
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}

/** The page's cumulative layout shift so far, as the browser's own layout-shift entries add it up. */
export async function layoutShift(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve) => {
        let total = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>)
            if (!entry.hadRecentInput) total += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => resolve(total), 500);
      }),
  );
}
