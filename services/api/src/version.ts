import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The API's version from its package.json, read once. */
export function readVersion(): string {
  const packageJson = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8')) as { version: string };
  return packageJson.version;
}
