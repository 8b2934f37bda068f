import { createFileRoute } from '@tanstack/react-router';
import { forgotSearch } from '../features/auth/login-search';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';

export const Route = createFileRoute('/forgot-password')({
  validateSearch: forgotSearch,
  component: ForgotPasswordPage,
});
