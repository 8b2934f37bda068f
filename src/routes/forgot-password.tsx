import { createFileRoute } from '@tanstack/react-router';
import { forgotSearchSchema } from '../features/auth/login-search';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';

export const Route = createFileRoute('/forgot-password')({
  validateSearch: forgotSearchSchema,
  component: ForgotPasswordPage,
});
