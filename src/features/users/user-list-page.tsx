import { useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { Suspense, lazy, useEffect, useState } from 'react';
import { useSession } from '../../auth/session-context';
import { useT } from '../../i18n/i18n-context';
import { useOutboxInstance } from '../../offline/outbox-react';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import type { ListStateSource } from '../../ui/use-list-filters';
import type { UserFilters } from './api/user-search';
import { createDraft } from './api/user-writes';
import { UsersTable } from './users-table';

// The wizard is loaded when 'Nutzer anlegen' is pressed (or a refused creation is opened again).
const loadCreateFlow = () => import('./components/user-create-flow');
const UserCreateFlow = lazy(() => loadCreateFlow().then((m) => ({ default: m.UserCreateFlow })));

type Opening = { n: number; initial: ReturnType<typeof createDraft> };

/** /nutzer: the end customers and their contracts, with the bulk payment-status change and 'Nutzer anlegen' (spec 2 §2). */
export function UserListPage({ list }: { list: ListStateSource<UserFilters> }) {
  const t = useT();
  const outbox = useOutboxInstance();
  const [opening, setOpening] = useState<Opening | null>(null);
  const [isOpen, setOpen] = useState(false);
  const open = (initial: Opening['initial'] = null) => {
    setOpening((o) => ({ n: (o?.n ?? 0) + 1, initial }));
    setOpen(true);
  };

  // Fetched once the list shows (not with the route): a user created offline right after opening
  // the page works before the service worker has cached the app.
  const queryClient = useQueryClient();
  const ownOperator = useSession().claims?.cpo_id[0];
  useEffect(() => {
    void loadCreateFlow()
      .then((m) => m.warmCreateWizard(queryClient, ownOperator))
      .catch(() => undefined);
  }, [queryClient, ownOperator]);

  // The outbox's 'Erneut bearbeiten' of a refused creation: /nutzer#create=<draft>.
  const hash = useRouterState({ select: (s) => s.location.hash });
  const [reopened, setReopened] = useState<string | null>(null);
  useEffect(() => {
    const draft = /^create=(.+)$/.exec(hash)?.[1];
    if (!draft || draft === reopened) return;
    setReopened(draft);
    open(createDraft(outbox.getSnapshot(), decodeURIComponent(draft)));
  }, [hash, reopened, outbox]);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={t('users.list.title')}
        description={t('users.list.intro')}
        className="mb-0"
        actions={<Button onPress={() => open()}>{t('users.create.open')}</Button>}
      />
      <UsersTable heading={t('users.list.heading')} list={list} />
      {opening && (
        <Suspense fallback={null}>
          <UserCreateFlow key={opening.n} isOpen={isOpen} initial={opening.initial} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </div>
  );
}
