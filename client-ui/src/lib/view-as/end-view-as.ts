import { browser } from '../browser';
import { navigateTo } from '../navigation';
import { useUserStore } from '../stores/user-store';
import { useViewAsStore } from './view-as-store';
import { VIEW_AS_PATH } from './view-as-tab';

/**
 * Ends the view in this tab: the token is forgotten (the API keeps no session to end), the tab closes when the
 * console opened it, and otherwise shows that the view has ended.
 */
export function endViewAs(): void {
  useViewAsStore.getState().end();
  useUserStore.getState().clear();
  browser.close();
  navigateTo(VIEW_AS_PATH);
}
