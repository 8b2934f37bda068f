import type { ErrorComponentProps } from '@tanstack/react-router';
import { Suspense, lazy } from 'react';
import { useT } from '../i18n/i18n-context';
import { RouteError } from './route-error';

/** What `adminOnly` throws for anyone but a platform admin; `titleId` is the page's title (a message id). */
export class AdminOnlyError extends Error {
  override readonly name = 'AdminOnlyError';
  constructor(readonly titleId: string) {
    super('This page is for platform admins only');
  }
}

/**
 * The `beforeLoad` of a route for platform admins only (customers, RFID): anyone else sees the
 * admin-only screen in the shell, under the page's title, and the route loads nothing (neither its
 * loader nor its queries run). The one gate: the pages themselves do not check again.
 */
export const adminOnly =
  (titleId: string) =>
  ({ context }: { context: { session: { isAdmin: boolean } } }) => {
    if (!context.session.isAdmin) throw new AdminOnlyError(titleId);
  };

// The screen loads with the signed-in chunks; this file is on the first route (the router's error screen).
const AdminOnly = lazy(() => import('./admin-only').then((m) => ({ default: m.AdminOnly })));

/** The router's error screen: the admin-only screen for an `AdminOnlyError`, RouteError for anything else. */
export function GatedRouteError(props: ErrorComponentProps) {
  const t = useT();
  if (!(props.error instanceof AdminOnlyError)) return <RouteError {...props} />;
  return (
    <Suspense fallback={null}>
      <AdminOnly title={t(props.error.titleId)} />
    </Suspense>
  );
}
