import { isApiError } from '../api/errors';
import { useT } from '../i18n/i18n-context';
import { LinkButton } from '../ui/button';
import { LoadError } from '../ui/load-error';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';
import { OfflineUnavailable, isWaitingOffline } from './offline-unavailable';

export interface DetailPageFallbackProps {
  query: { isPending: boolean; fetchStatus: string; error: unknown; refetch: () => unknown };
  title: string;
  backHref: string;
  backLabel: string;
  /** The 404 text: this entity does not exist, or it is not the user's. */
  notFoundText: string;
}

/**
 * What a detail page shows before it has its entity: a spinner while loading; offline and never
 * loaded, that it is not available offline; a 404, that the entity does not exist (or is not the
 * user's) with the way back to its list; any other failure, the 'server again' warning with a retry.
 */
export function DetailPageFallback({ query, title, backHref, backLabel, notFoundText }: DetailPageFallbackProps) {
  const t = useT();
  if (isWaitingOffline(query)) {
    return (
      <div className="flex flex-col gap-4">
        <PageHeader title={title} backHref={backHref} backLabel={backLabel} className="mb-0" />
        <OfflineUnavailable />
      </div>
    );
  }
  if (query.isPending) {
    return (
      <div className="flex min-h-48 items-center justify-center">
        <Spinner showLabel />
      </div>
    );
  }
  const notFound = isApiError(query.error) && query.error.status === 404;
  return (
    <div className="flex flex-col gap-4">
      <PageHeader title={title} backHref={backHref} backLabel={backLabel} className="mb-0" />
      {notFound ? (
        <div role="alert" className="flex flex-col items-start gap-3 rounded-lg border border-border bg-surface px-4 py-3 text-fg">
          <p>{notFoundText}</p>
          <LinkButton href={backHref} variant="secondary" size="sm">
            {backLabel}
          </LinkButton>
        </div>
      ) : (
        <LoadError tone="warning" message={t('errors.serverAgain')} onRetry={() => void query.refetch()} />
      )}
    </div>
  );
}
