import { createFileRoute } from '@tanstack/react-router';
import { forgotSearch } from '../features/auth/login-search';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';

export const Route = createFileRoute('/passwort-vergessen')({
  validateSearch: forgotSearch,
  component: ForgotPasswordPage,
});
