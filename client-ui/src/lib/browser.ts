/**
 * The few browser side effects the app triggers on purpose, gathered in one object so tests can observe them:
 * jsdom's `location.reload` cannot be replaced, but a method on this object can.
 */
export const browser = {
  reload(): void {
    window.location.reload();
  },
  assign(url: string): void {
    window.location.assign(url);
  },
  /** Closes the tab, which browsers allow only for a tab a script opened (the console's view-as tab). */
  close(): void {
    window.close();
  },
};
