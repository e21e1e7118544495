import { useLogin } from 'react-admin';
import { SignInForm } from '../sign-in/sign-in-form';

/**
 * react-admin's login page, shown when a session ends while the console is open: the same form as the first screen,
 * signing in through react-admin so that it returns to the page the user was sent away from.
 */
export function LoginPage() {
  const login = useLogin();
  return <SignInForm signIn={login} />;
}
