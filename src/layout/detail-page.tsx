import type { ReactNode } from 'react';
import { isApiError } from '../api/errors';
import { useT } from '../i18n/i18n-context';
import { LinkButton } from '../ui/button';
import { LoadError } from '../ui/load-error';
import { PageHeader } from '../ui/page-header';
import { Spinner } from '../ui/spinner';
import { OfflineUnavailable, isWaitingOffline } from './offline-unavailable';

/** What a detail page needs of its query (TanStack Query's result). */
export interface DetailQuery<T> {
  data: T | undefined;
  isPending: boolean;
  fetchStatus: string;
  error: unknown;
  refetch: () => unknown;
}

interface FallbackProps {
  query: DetailQuery<unknown>;
  /**
   * Where the area keeps the page's texts: `<messages>.title` (the page's title while there is no
   * entity; the loaded page may title itself by the entity), `.back` (the way back to the list)
   * and `.notFound` (the 404: this entity does not exist, or it is not the user's).
   */
  messages: string;
  backHref: string;
}

/** The header of the loaded page: its own title (default: the page's `title`), a description and actions. */
export interface DetailHeader {
  title?: ReactNode;
  description?: ReactNode;
  actions?: ReactNode;
}

export interface DetailPageProps<T> extends FallbackProps {
  query: DetailQuery<T>;
  header: (entity: T) => DetailHeader;
  /** The page under its header once the entity is there (also when a later refetch failed: what was loaded stays). */
  children: (entity: T) => ReactNode;
}

/**
 * A detail page: the header with the way back to its list and the entity's page once the query has
 * it; the fallback below until then.
 */
export function DetailPage<T>({ query, header, children, ...fallback }: DetailPageProps<T>) {
  const t = useT();
  if (query.data === undefined) return <DetailPageFallback query={query} {...fallback} />;
  const { title = t(`${fallback.messages}.title`), description, actions } = header(query.data);
  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={title}
        description={description}
        backHref={fallback.backHref}
        backLabel={t(`${fallback.messages}.back`)}
        className="mb-0"
        actions={actions}
      />
      {children(query.data)}
    </div>
  );
}

function DetailPageFallback({ query, messages, backHref }: FallbackProps) {
  const t = useT();
  const title = t(`${messages}.title`);
  const backLabel = t(`${messages}.back`);
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
          <p>{t(`${messages}.notFound`)}</p>
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
