import { useT } from '../../i18n/i18n-context';
import { PageHeader } from '../../ui/page-header';
import type { ListStateSource } from '../../ui/use-list-filters';
import type { UserFilters } from './api/user-search';
import { UsersTable } from './users-table';

/** /nutzer: the end customers and their contracts, with the bulk payment-status change (spec 2 §2). */
export function UserListPage({ list }: { list: ListStateSource<UserFilters> }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('users.list.title')} description={t('users.list.intro')} className="mb-0" />
      <UsersTable heading={t('users.list.heading')} list={list} />
    </div>
  );
}
