import { useStationLive } from './use-station-live';
import { useT } from '../../i18n/i18n-context';
import { Button } from '../../ui/button';
import { ActionMenu } from '../../ui/menu';
import { PageHeader } from '../../ui/page-header';
import { useSession } from '../../auth/session-context';
import { StationsTable } from './stations-table';
import type { ListStateSource } from '../../ui/use-list-filters';
import type { StationFilters } from './api/station-search';
import { lazyDialog, useDialogOpener } from '../../ui/lazy-dialog';

// The wizard loads only when someone opens it.
const CreateStationsWizard = lazyDialog(() => import('./create-stations-wizard').then((m) => m.CreateStationsWizard));
const StationImportDialog = lazyDialog(() => import('./import/station-import-dialog').then((m) => m.StationImportDialog));

/** /stationen: the connector list with bulk actions, and station creation (spec 2 §2). */
export function StationListPage({ list }: { list: ListStateSource<StationFilters> }) {
  const t = useT();
  const { isAdmin } = useSession();
  const create = useDialogOpener();
  const upload = useDialogOpener();
  useStationLive();

  return (
    <div className="flex flex-col gap-5">
      <PageHeader
        title={t('stations.list.title')}
        description={t('stations.list.intro')}
        className="mb-0"
        actions={
          // Spec 2 §2: admins get a menu (the form or a file); others a direct form button.
          isAdmin ? (
            <ActionMenu
              label={t('stations.create.open')}
              variant="primary"
              items={[
                { id: 'form', label: t('stations.create.viaForm') },
                { id: 'upload', label: t('stations.create.viaUpload') },
              ]}
              onAction={(id) => (id === 'upload' ? upload.open() : create.open())}
            />
          ) : (
            <Button onPress={create.open}>{t('stations.create.open')}</Button>
          )
        }
      />
      <StationsTable heading={t('stations.list.heading')} list={list} />
      <CreateStationsWizard opener={create} />
      {isAdmin && <StationImportDialog key={upload.opening} opener={upload} />}
    </div>
  );
}
