import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Creates `file` for writing, readable and writable by its owner only from its first byte: the mode is given to
 * open(2) with O_EXCL, so there is no moment at which another user could open it (a backup holds password hashes and
 * personal data), and an existing file, whose mode open would keep, is refused rather than overwritten.
 */
export async function openPrivateFile(file: string): Promise<WriteStream> {
  const stream = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  await once(stream, 'open');
  return stream;
}
