import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * axe-core's browser build, read from the test workspace's own dependency: the page never fetches it. It is run with
 * `page.evaluate` rather than added as a `<script>` tag, because the apps' Content Security Policy refuses inline
 * scripts (and the journeys fail on any refusal); DevTools evaluation is outside the policy.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts that fail a journey; "moderate" and "minor" findings are left to review. */
const FAILING_IMPACTS = new Set(['critical', 'serious']);

export interface AxeFinding {
  rule: string;
  impact: string;
  help: string;
  /** CSS selectors of the offending elements, with axe's one-line summary of what is wrong with each. */
  nodes: string[];
}

interface AxeNodeResult {
  target: unknown[];
  failureSummary?: string;
}

interface AxeViolation {
  id: string;
  impact?: string | null;
  help: string;
  nodes: AxeNodeResult[];
}

/** Runs axe-core over the whole document and answers its critical and serious violations. */
export async function seriousAccessibilityFindings(page: Page): Promise<AxeFinding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<unknown> } }).axe;
    const results = (await axe.run(document, { resultTypes: ['violations'] })) as { violations: unknown[] };
    return results.violations;
  });
  return (violations as AxeViolation[])
    .filter((violation) => FAILING_IMPACTS.has(violation.impact ?? ''))
    .map((violation) => ({
      rule: violation.id,
      impact: violation.impact ?? '',
      help: violation.help,
      nodes: violation.nodes.map(
        (node) => `${node.target.join(' ')}: ${(node.failureSummary ?? '').replace(/\s+/g, ' ').trim()}`,
      ),
    }));
}

/** Formats findings as a readable list, one rule per paragraph. */
export function describeFindings(label: string, findings: AxeFinding[]): string {
  return findings
    .map(
      (finding) =>
        `${label}: [${finding.impact}] ${finding.rule}: ${finding.help}\n${finding.nodes.map((node) => `    ${node}`).join('\n')}`,
    )
    .join('\n');
}

/** Fails with every critical and serious axe-core violation on the page, named by rule and element. */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  const findings = await seriousAccessibilityFindings(page);
  if (findings.length > 0)
    throw new Error(`axe-core found serious accessibility problems:\n${describeFindings(label, findings)}`);
}
