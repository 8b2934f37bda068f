import { useQuery } from '@tanstack/react-query';
import type { Key } from 'react-aria-components/Tabs';
import { useSession } from '../../auth/session-context';
import { useT } from '../../i18n/i18n-context';
import { Card } from '../../ui/card';
import { LoadError } from '../../ui/load-error';
import { PageHeader } from '../../ui/page-header';
import { Spinner } from '../../ui/spinner';
import { Tab, TabList, TabPanel, Tabs } from '../../ui/tabs';
import { locationDropdownQueryOptions } from '../locations/api/location-queries';
import { mayUseDownloadTab } from '../../../contract/downloads';
import { downloadTabs, type DownloadSearch, type DownloadTab } from './api/download-search';
import { ErpTab, HistoryTab, InvoicesTab } from './components/download-tabs';

/** Spec 3 §6: history for everyone, invoices for partners, operators and admins, ERP for partners and admins. */
export function visibleTabs(session: { isAdmin: boolean; customerType: string | undefined }): DownloadTab[] {
  return downloadTabs.filter((tab) => mayUseDownloadTab(tab, session));
}

/**
 * /downloadcenter (spec 3 §2): one tab per file family, each with its own form kept in the URL.
 * The location (and operator) choices come from the shared location dropdown.
 */
export function DownloadCenterPage({ search, onChange }: { search: DownloadSearch; onChange: (next: DownloadSearch) => void }) {
  const t = useT();
  const session = useSession();
  const tabs = visibleTabs({ isAdmin: session.isAdmin, customerType: session.claims?.customer_type });
  const tab = tabs.includes(search.tab) ? search.tab : 'history';
  const locations = useQuery(locationDropdownQueryOptions());
  const onPatch = (patch: Partial<DownloadSearch>) => onChange({ ...search, ...patch });
  const props = { search, onPatch, locations: locations.data ?? [] };

  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('downloads.title')} description={t('downloads.intro')} className="mb-0" />
      <Card>
        <Tabs selectedKey={tab} onSelectionChange={(key: Key) => onPatch({ tab: String(key) as DownloadTab })}>
          <TabList aria-label={t('downloads.tabsLabel')}>
            {tabs.map((id) => (
              <Tab key={id} id={id}>
                {t(`downloads.tabs.${id}`)}
              </Tab>
            ))}
          </TabList>
          {tabs.map((id) => (
            <TabPanel key={id} id={id} className="pt-3">
              {locations.isPending ? (
                <Spinner />
              ) : locations.isError && !locations.data ? (
                <LoadError message={t('downloads.locationsError')} onRetry={() => void locations.refetch()} />
              ) : id === 'history' ? (
                <HistoryTab {...props} />
              ) : id === 'invoices' ? (
                <InvoicesTab {...props} />
              ) : (
                <ErpTab {...props} />
              )}
            </TabPanel>
          ))}
        </Tabs>
      </Card>
    </div>
  );
}
