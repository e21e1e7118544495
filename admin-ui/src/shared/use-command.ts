import { useCallback, useState } from 'react';
import { useNotify, useRefresh } from 'react-admin';

interface CommandOptions {
  /** Translation key of the success toast. */
  successMessage: string;
  /** A fixed message for failures instead of the server's (the notes screens use their own catalogue text). */
  failureMessage?: string;
  /** Re-fetch the page's records after success (true by default). */
  refresh?: boolean;
}

/**
 * Runs a command against the API the pessimistic way: the screen waits for the server's answer, shows success only
 * once the server has agreed, and then re-reads the record. Nothing is applied optimistically or deferred for
 * "undo", because status, role and password changes must not appear to succeed before they have.
 */
export function useCommand() {
  const notify = useNotify();
  const refresh = useRefresh();
  const [pending, setPending] = useState(false);

  const run = useCallback(
    async <T>(command: () => Promise<T>, options: CommandOptions): Promise<T | undefined> => {
      setPending(true);
      try {
        const result = await command();
        notify(options.successMessage, { type: 'success' });
        if (options.refresh !== false) refresh();
        return result;
      } catch (error) {
        // The HTTP client already turned the server's answer into the catalogue text of the page language.
        const message = options.failureMessage ?? (error instanceof Error ? error.message : String(error));
        notify(message, { type: 'error', messageArgs: { _: message } });
        return undefined;
      } finally {
        setPending(false);
      }
    },
    [notify, refresh],
  );

  return { run, pending };
}
