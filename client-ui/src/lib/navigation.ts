/**
 * Lets code outside React (the API client) move the user to another screen. The app registers the router's
 * navigate function at start-up; until then, and in bare unit tests, a full page load does the job.
 */
export type Navigate = (to: string) => void;

let navigateImpl: Navigate | null = null;

export function registerNavigate(navigate: Navigate | null): void {
  navigateImpl = navigate;
}

export function navigateTo(to: string): void {
  if (navigateImpl) navigateImpl(to);
  else window.location.assign(to);
}
