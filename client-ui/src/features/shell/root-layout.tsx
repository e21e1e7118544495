import { Outlet } from '@tanstack/react-router';
import { LangToggle } from './lang-toggle';

/** Every screen, public or not: the fixed language toggle in the top corner, then the matched route. */
export function RootLayout() {
  return (
    <>
      <LangToggle />
      <Outlet />
    </>
  );
}
