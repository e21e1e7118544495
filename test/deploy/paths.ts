import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root and its deploy/ folder, whose files these checks read. */
export const REPOSITORY_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const DEPLOY_DIR = join(REPOSITORY_ROOT, 'deploy');
