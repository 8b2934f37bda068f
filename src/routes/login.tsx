import { createFileRoute } from '@tanstack/react-router';
import { loginSearch } from '../features/auth/login-search';
import { LoginPage } from '../features/auth/login-page';

export const Route = createFileRoute('/login')({
  validateSearch: loginSearch,
  component: LoginPage,
});
