import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from '@tanstack/react-router';
import { useSession } from '../auth/session-context';
import { useT } from '../i18n/i18n-context';
import { LinkButton } from '../ui/button';
import { navFor } from './nav-items';

/**
 * Offline, for a view that was never loaded: there is nothing to show and nothing will come until
 * the network is back, so instead of a spinner the screen says so and offers the screens whose data
 * this device has kept (a menu entry whose key root has data in the cache).
 */
export function OfflineUnavailable({ page = false }: { page?: boolean }) {
  const t = useT();
  const session = useSession();
  const router = useRouter();
  const cache = useQueryClient().getQueryCache();
  const nav = navFor(session, (href) => href in router.routesByPath);
  const kept = [...nav.main, ...nav.administration, ...nav.after].filter(
    (item) => item.dataRoot && cache.findAll({ queryKey: [item.dataRoot] }).some((q) => q.state.data !== undefined),
  );
  return (
    <div role="status" className="flex flex-col gap-3 rounded-lg border border-warning bg-warning-soft px-4 py-3 text-fg">
      <p className="font-semibold">{t('offline.unavailable.title')}</p>
      <p>{t(page ? 'offline.unavailable.page' : 'offline.unavailable.text')}</p>
      {kept.length > 0 && (
        <div className="flex flex-col gap-2">
          <p>{t('offline.unavailable.kept')}</p>
          <ul className="flex flex-wrap gap-2">
            {kept.map((item) => (
              <li key={item.key}>
                <LinkButton href={item.href} variant="secondary" size="sm">
                  {t(`nav.${item.key}`)}
                </LinkButton>
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}

/**
 * True for another page or filter of a list that waits for the network while the rows shown are
 * still the previous page's (kept as placeholder): those rows must not pass for the page asked for.
 */
export const isPageWaitingOffline = (query: { isPlaceholderData: boolean; fetchStatus: string }) =>
  query.isPlaceholderData && query.fetchStatus === 'paused';

/** True for a read that has nothing yet and waits for the network (TanStack's paused fetch). */
export const isWaitingOffline = (query: { isPending: boolean; fetchStatus: string }) => query.isPending && query.fetchStatus === 'paused';
