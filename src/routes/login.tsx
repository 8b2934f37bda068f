import { createFileRoute } from '@tanstack/react-router';
import { loginSearchSchema } from '../features/auth/login-search';
import { LoginPage } from '../features/auth/login-page';

export const Route = createFileRoute('/login')({
  validateSearch: loginSearchSchema,
  component: LoginPage,
});
