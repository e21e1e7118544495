import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEPLOY_DIR } from './paths.ts';

/** The names deploy/.env.example lists: `NAME=` lines and `# NAME=` examples left off. */
export function envExampleNames(): Set<string> {
  const text = readFileSync(join(DEPLOY_DIR, '.env.example'), 'utf8');
  return new Set([...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]));
}
