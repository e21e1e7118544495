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
  /**
   * Opens an empty tab during a click, to be sent to an address the app learns a moment later (a one-time link the
   * API gives): a popup blocker lets through only a tab opened by the click itself. Null when it was blocked anyway.
   */
  openTab(): { go(url: string): void; close(): void } | null {
    const tab = window.open('', '_blank');
    if (!tab) return null;
    // The page it goes to must not reach back into the portal through `window.opener`.
    tab.opener = null;
    return { go: (url) => tab.location.assign(url), close: () => tab.close() };
  },
  /** Closes the tab, which browsers allow only for a tab a script opened (the console's view-as tab). */
  close(): void {
    window.close();
  },
};
