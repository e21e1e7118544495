// `npm run lint` step: every relative Markdown link in the repository's documents points at a file that exists, and
// every ADR that a document or the code cites ("ADR 0061", "docs/adr/0061-….md") exists. Prints each broken one with
// its place and exits 1 when there is any.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..');
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '' && existsSync(join(root, path)))
  // The boundaries fixture's files are deliberately wrong code, not documents about this repository.
  .filter((path) => !path.startsWith('test/boundaries-fixture/'));

const adrFiles = readdirSync(join(root, 'docs/adr')).filter((name) => /^\d{4}-.*\.md$/.test(name));
const adrNumbers = new Set(adrFiles.map((name) => name.slice(0, 4)));
const problems = [];

function lineOf(text, index) {
  return text.slice(0, index).split('\n').length;
}

// Links: [text](target) and [text]: target, outside fenced code.
for (const path of tracked.filter((file) => file.endsWith('.md'))) {
  const text = readFileSync(join(root, path), 'utf8');
  const prose = text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
  const links = [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...prose.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)];
  for (const match of links) {
    const target = match[1];
    if (/^(?:[a-z][a-z0-9+.-]*:|#|\/\/)/i.test(target)) continue;
    const file = decodeURIComponent(target.split('#')[0]);
    if (file === '') continue;
    if (!existsSync(resolve(dirname(join(root, path)), file)))
      problems.push(`${path}:${lineOf(text, match.index)}: link to ${target}, which does not exist`);
  }
}

// ADR citations, in documents and code alike.
const cited = /\bADRs? (\d{4})\b|docs\/adr\/(\d{4}-[A-Za-z0-9-]+\.md)|\b(\d{4})-[a-z0-9-]+\.md\b/g;
for (const path of tracked.filter((file) => /\.(md|ts|tsx|mjs|cjs|js|sh|yaml|yml|json)$/.test(file))) {
  if (path.startsWith('docs/events/') || path === 'package-lock.json' || path === 'docs/openapi.json') continue;
  const text = readFileSync(join(root, path), 'utf8');
  for (const match of text.matchAll(cited)) {
    const [, number, adrPath, bareNumber] = match;
    if (number !== undefined && !adrNumbers.has(number))
      problems.push(`${path}:${lineOf(text, match.index)}: cites ADR ${number}, which does not exist`);
    if (adrPath !== undefined && !adrFiles.includes(adrPath))
      problems.push(`${path}:${lineOf(text, match.index)}: names docs/adr/${adrPath}, which does not exist`);
    if (bareNumber !== undefined && path.startsWith('docs/adr/') && !adrFiles.includes(match[0]))
      problems.push(`${path}:${lineOf(text, match.index)}: names ${match[0]}, which does not exist`);
  }
}

if (problems.length > 0) {
  console.error(`docs: ${problems.length} reference(s) that do not resolve:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`docs: every link and ADR citation resolves (${tracked.length} files read)`);
