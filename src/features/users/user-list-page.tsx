import { useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import { useSession } from '../../auth/session-context';
import { useT } from '../../i18n/i18n-context';
import { useOutboxInstance } from '../../offline/outbox-react';
import { Button } from '../../ui/button';
import { PageHeader } from '../../ui/page-header';
import type { ListStateSource } from '../../ui/use-list-filters';
import type { UserFilters } from './api/user-search';
import { createDraft } from './api/user-writes';
import { UsersTable } from './users-table';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

// The wizard is loaded when 'Nutzer anlegen' is pressed (or a refused creation is opened again).
const loadCreateFlow = () => import('./components/user-create-flow');
const UserCreateFlow = lazyDialog(() => loadCreateFlow().then((m) => m.UserCreateFlow));

/** /nutzer: the end customers and their contracts, with the bulk payment-status change and 'Nutzer anlegen' (spec 2 §2). */
export function UserListPage({ list }: { list: ListStateSource<UserFilters> }) {
  const t = useT();
  const outbox = useOutboxInstance();
  const creator = useDialogOpener();
  const [initial, setInitial] = useState<ReturnType<typeof createDraft>>(null);
  const { open: openCreator } = creator;
  const open = useCallback(
    (draft: ReturnType<typeof createDraft> = null) => {
      setInitial(draft);
      openCreator();
    },
    [openCreator],
  );

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
  }, [hash, reopened, outbox, open]);

  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={t('users.list.title')}
        description={t('users.list.intro')}
        className="mb-0"
        actions={<Button onPress={() => open()}>{t('users.create.open')}</Button>}
      />
      <UsersTable heading={t('users.list.heading')} list={list} />
      <UserCreateFlow key={creator.opening} opener={creator} initial={initial} />
    </div>
  );
}
