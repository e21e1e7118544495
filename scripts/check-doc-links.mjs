// `npm run lint` step: every relative Markdown link in the repository's documents points at a file that exists (and,
// with a `#fragment`, at a heading of that file, by GitHub's rule for heading anchors), and every ADR that a document
// or the code cites ("ADR 0061", "docs/adr/0061-….md") exists. Prints each broken one with its place and exits 1 when
// there is any. `node scripts/check-doc-links.mjs <folder>` checks that folder as a repository of its own: the
// fixture of scripts/check-doc-links-fixture.mjs, which proves the check bites.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = process.argv[2] ? resolve(process.argv[2]) : resolve(dirname(new URL(import.meta.url).pathname), '..');
const tracked = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '.'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((path) => path !== '' && existsSync(join(root, path)))
  // The fixtures' files are deliberately wrong, not documents about this repository.
  .filter((path) => !path.startsWith('test/boundaries-fixture/') && !path.startsWith('test/doc-links-fixture/'));

const adrFiles = readdirSync(join(root, 'docs/adr')).filter((name) => /^\d{4}-.*\.md$/.test(name));
const adrNumbers = new Set(adrFiles.map((name) => name.slice(0, 4)));
const problems = [];

function lineOf(text, index) {
  return text.slice(0, index).split('\n').length;
}

/** A Markdown text with its fenced code blocks blanked out, line breaks kept. */
function proseOf(text) {
  return text.replace(/```[\s\S]*?```/g, (block) => block.replace(/[^\n]/g, ' '));
}

/**
 * The anchors GitHub gives a Markdown file's headings: lower case, punctuation dropped, spaces as hyphens, a repeated
 * one suffixed -1, -2…; plus any explicit `<a id="…">` / `name="…"`.
 */
const anchorsByFile = new Map();
function anchorsOf(file) {
  if (!anchorsByFile.has(file)) {
    const anchors = new Set();
    const seen = new Map();
    const prose = proseOf(readFileSync(file, 'utf8'));
    for (const [, heading] of prose.matchAll(/^#{1,6}\s+(.*?)\s*#*\s*$/gm)) {
      const base = heading
        .toLowerCase()
        .replace(/<[^>]*>/g, '')
        .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
        .replace(/ /g, '-');
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    for (const [, id] of prose.matchAll(/<a\s[^>]*(?:id|name)="([^"]+)"/g)) anchors.add(id);
    anchorsByFile.set(file, anchors);
  }
  return anchorsByFile.get(file);
}

// Links: [text](target) and [text]: target, outside fenced code.
for (const path of tracked.filter((file) => file.endsWith('.md'))) {
  const text = readFileSync(join(root, path), 'utf8');
  const prose = proseOf(text);
  const links = [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...prose.matchAll(/^\[[^\]]+\]:\s*(\S+)/gm)];
  for (const match of links) {
    const target = match[1];
    if (/^(?:[a-z][a-z0-9+.-]*:|\/\/)/i.test(target)) continue;
    const [file, fragment] = target.split('#').map((part) => decodeURIComponent(part));
    const linked = file === '' ? join(root, path) : resolve(dirname(join(root, path)), file);
    if (!existsSync(linked)) {
      problems.push(`${path}:${lineOf(text, match.index)}: link to ${target}, which does not exist`);
      continue;
    }
    if (fragment && linked.endsWith('.md') && !anchorsOf(linked).has(fragment))
      problems.push(`${path}:${lineOf(text, match.index)}: link to ${target}, a heading that does not exist`);
  }
}

// ADR citations, in documents and code alike.
const cited = /\bADRs? (\d{4})\b|docs\/adr\/(\d{4}-[A-Za-z0-9-]+\.md)|\b(\d{4})-[a-z0-9-]+\.md\b/g;
for (const path of tracked.filter((file) => /\.(md|ts|tsx|mjs|cjs|js|sh|yaml|yml|json)$/.test(file))) {
  if (path.startsWith('docs/events/') || path === 'package-lock.json' || path === 'docs/openapi.json') continue;
  if (path === 'scripts/check-doc-links-fixture.mjs') continue;
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

// Every record opens the same way ("# NNNN — Title", a blank line, "Status: …") and has its row in the index.
const indexPath = join(root, 'docs/adr/README.md');
const index = existsSync(indexPath) ? readFileSync(indexPath, 'utf8') : null;
for (const name of adrFiles) {
  const number = name.slice(0, 4);
  const [title = '', blank = '', status = ''] = readFileSync(join(root, 'docs/adr', name), 'utf8').split('\n');
  if (!title.startsWith(`# ${number} — `) || blank !== '' || !status.startsWith('Status: '))
    problems.push(`docs/adr/${name}:1: does not open with "# ${number} — Title", a blank line and "Status: …"`);
  if (index !== null && !index.includes(`| ${number} | [`))
    problems.push(`docs/adr/${name}:1: has no row in docs/adr/README.md`);
}

if (problems.length > 0) {
  console.error(`docs: ${problems.length} reference(s) that do not resolve:\n${problems.join('\n')}`);
  process.exit(1);
}
console.log(`docs: every link and ADR citation resolves (${tracked.length} files read)`);
