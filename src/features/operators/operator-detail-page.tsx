import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { templateLineKeys, type ErpValue, type OperatorDetail } from '../../../contract/operators';
import { useT } from '../../i18n/i18n-context';
import { Card } from '../../ui/card';
import { cx } from '../../ui/class-names';
import { DataTable, type DataTableColumn } from '../../ui/data-table';
import { StatusBadge } from '../../ui/status-badge';
import { Tab, TabList, TabPanel, Tabs } from '../../ui/tabs';
import { DetailPage } from '../../layout/detail-page';
import { DataAgeNote } from '../../offline/data-age-note';
import { usePendingFor } from '../../offline/outbox-react';
import { methodMessageId, operatorDetailQueryOptions } from './api/operator-queries';
import { operatorScope } from './api/operator-writes';

export interface OperatorDetailPageProps {
  cpoId: string;
  /** The header's Actions menu (the three edits); receives the loaded operator. */
  renderActions?: (operator: OperatorDetail) => ReactNode;
}

/**
 * /betreiber/{id} (spec 3 §2): 'Betreiberverwaltung' with the operator's id, name and address, the
 * tabs 'Rechnungsvorlage' and 'ERP-Importdaten', and the Actions menu with the three edits.
 */
export function OperatorDetailPage({ cpoId, renderActions }: OperatorDetailPageProps) {
  const t = useT();
  const options = operatorDetailQueryOptions(cpoId);
  const query = useQuery(options);

  return (
    <DetailPage
      query={query}
      messages="operators.detail"
      backHref="/betreiber"
      header={(operator) => ({
        description: t('operators.detail.subtitle', { id: operator.cpoId, name: operator.cpoName }),
        actions: (
          <>
            <PendingNote cpoId={operator.cpoId} />
            <DataAgeNote queryKey={options.queryKey} />
            {renderActions?.(operator)}
          </>
        ),
      })}
    >
      {(operator) => (
        <>
          <OperatorInfo operator={operator} />
          <Tabs defaultSelectedKey="template">
            <TabList aria-label={t('operators.detail.viewLabel')}>
              <Tab id="template">{t('operators.detail.templateTab')}</Tab>
              <Tab id="erp">{t('operators.detail.erpTab')}</Tab>
            </TabList>
            <TabPanel id="template">
              <InvoiceTemplate operator={operator} />
            </TabPanel>
            <TabPanel id="erp">
              <ErpValues operator={operator} />
            </TabPanel>
          </Tabs>
        </>
      )}
    </DetailPage>
  );
}

/** 'wird gesendet' while an edit of this operator waits in the outbox, 'nicht gespeichert' when one was refused. */
function PendingNote({ cpoId }: { cpoId: string }) {
  const t = useT();
  // A refused edit refreshes the operator (the write kind's refresh), so the next edit starts from,
  // and carries the version of, the colleague's change.
  const writes = usePendingFor(operatorScope(cpoId));
  const failed = writes.some((w) => w.state === 'failed');
  if (writes.length === 0) return null;
  return (
    <StatusBadge tone={failed ? 'danger' : 'warning'}>
      <span data-testid="operator-pending">{failed ? t('operators.detail.pendingFailed') : t('operators.detail.pending')}</span>
    </StatusBadge>
  );
}

/**
 * Labels take what they need up to about half the width, then wrap: a long label never squeezes
 * its value. `stacked`: lists shown one below the other (narrow screens) share one label width.
 */
function Facts({ entries, stacked }: { entries: Array<[string, ReactNode]>; stacked?: boolean }) {
  return (
    <dl
      className={cx(
        'grid gap-x-4 gap-y-2',
        stacked
          ? 'grid-cols-[minmax(0,16rem)_minmax(0,1fr)] lg:grid-cols-[fit-content(45%)_minmax(0,1fr)]'
          : 'grid-cols-[fit-content(45%)_minmax(0,1fr)]',
      )}
    >
      {entries.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-muted">{label}</dt>
          <dd className="min-w-0 break-words text-fg">{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** An IBAN as it is printed: groups of four (it also wraps there on a narrow card). */
const groupsOfFour = (value: string) => value.replace(/\s+/g, '').replace(/(.{4})(?=.)/g, '$1 ');

const orDash = (value: string | number | null | undefined) => (value === null || value === undefined || value === '' ? '–' : value);

function OperatorInfo({ operator }: { operator: OperatorDetail }) {
  const t = useT();
  const a = operator.cpoAddress;
  return (
    <Card title={t('operators.detail.operatorInfo')} aria-label={t('operators.detail.operatorInfo')}>
      <div className="grid gap-x-8 gap-y-2 lg:grid-cols-2">
        <Facts
          stacked
          entries={[
            [t('operators.fields.cpoId'), operator.cpoId],
            [t('operators.fields.cpoName'), operator.cpoName],
            [
              t('operators.fields.address'),
              <span key="a" className="flex flex-col">
                <span>{a.street}</span>
                {a.careOf && <span>{t('operators.careOfLine', { careOf: a.careOf })}</span>}
                <span>{`${a.zipCode} ${a.city}`}</span>
              </span>,
            ],
          ]}
        />
        <Facts
          stacked
          entries={[
            [t('operators.fields.customerId'), operator.customerId],
            [t('operators.fields.customerType'), t(`operators.customerType.${operator.customerType}`)],
            [t('operators.fields.manualEndCustomerId'), operator.createManualEndCustomerId ? t('operators.yes') : t('operators.no')],
          ]}
        />
      </div>
    </Card>
  );
}

function Lines({ title, lines }: { title: string; lines: OperatorDetail['billingTemplateHeader'] }) {
  const t = useT();
  return (
    <Card title={title} aria-label={title}>
      <Facts entries={templateLineKeys.map((key, i) => [t('operators.fields.lineN', { n: i + 1 }), orDash(lines[key]?.trim())])} />
    </Card>
  );
}

function InvoiceTemplate({ operator }: { operator: OperatorDetail }) {
  const t = useT();
  const c = operator.contactPersonDetails;
  const p = operator.cpoPaymentDetails;
  const days = p?.moneyCollectionGapInDays;
  return (
    <div className="grid gap-4 lg:grid-cols-2">
      <Lines title={t('operators.detail.headers')} lines={operator.billingTemplateHeader} />
      <Lines title={t('operators.detail.footers')} lines={operator.billingTemplateFooter} />
      <Card title={t('operators.detail.contact')} aria-label={t('operators.detail.contact')}>
        <Facts
          entries={[
            [t('operators.fields.contactPersonName'), orDash(c.contactPersonName)],
            [t('operators.fields.contactPersonPosition'), orDash(c.contactPersonPosition)],
            [t('operators.fields.contactPersonEmail'), orDash(c.contactPersonEmail)],
            [t('operators.fields.contactPersonPhone'), orDash(c.contactPersonPhone)],
          ]}
        />
      </Card>
      <Card title={t('operators.detail.payment')} aria-label={t('operators.detail.payment')}>
        {p ? (
          <Facts
            entries={[
              [
                t('operators.fields.paymentModes'),
                p.cpoPaymentPreference.length ? p.cpoPaymentPreference.map((m) => t(methodMessageId(m))).join(', ') : '–',
              ],
              [t('operators.fields.creditorId'), orDash(p.creditorId)],
              [
                t('operators.fields.moneyCollectionGapInDays'),
                days === null || days === undefined ? '–' : t('operators.detail.days', { count: days }),
              ],
              [t('operators.fields.cpoIban'), p.cpoIban ? groupsOfFour(p.cpoIban) : '–'],
              [t('operators.fields.cpoBic'), orDash(p.cpoBic)],
              [t('operators.fields.cpoBankName'), orDash(p.cpoBankName)],
            ]}
          />
        ) : (
          <p className="text-muted">{t('operators.detail.noPayment')}</p>
        )}
      </Card>
      <Card title={t('operators.detail.tax')} aria-label={t('operators.detail.tax')} className="lg:col-span-2">
        <Facts
          entries={[
            [t('operators.fields.vatId'), orDash(operator.vatId)],
            [t('operators.fields.taxNumber'), orDash(operator.taxNumber)],
            [t('operators.fields.billNumberPrefix'), orDash(operator.billNumberPrefix)],
          ]}
        />
      </Card>
      <Card title={t('operators.detail.proof')} aria-label={t('operators.detail.proof')} className="lg:col-span-2">
        <p>{operator.isChargingHistoryIncluded ? t('operators.detail.proofIncluded') : t('operators.detail.proofNotIncluded')}</p>
      </Card>
    </div>
  );
}

function ErpValues({ operator }: { operator: OperatorDetail }) {
  const t = useT();
  const columns: DataTableColumn<ErpValue>[] = [
    { id: 'clientNumber', header: t('operators.erp.clientNumber'), cell: (r) => r.clientNumber, isRowHeader: true },
    { id: 'netLedgerAccountNr', header: t('operators.erp.netLedgerAccountNr'), cell: (r) => r.netLedgerAccountNr },
    { id: 'taxLedgerAccountNr', header: t('operators.erp.taxLedgerAccountNr'), cell: (r) => orDash(r.taxLedgerAccountNr) },
    { id: 'clearingAccountNr', header: t('operators.erp.clearingAccountNr'), cell: (r) => orDash(r.clearingAccountNr) },
    { id: 'paymentMethod', header: t('operators.erp.paymentMethod'), cell: (r) => t(methodMessageId(r.paymentMethod)) },
  ];
  // Spec 3 §2: no paging, search or filter; one row per payment method.
  return (
    <DataTable<ErpValue>
      aria-label={t('operators.detail.erpTab')}
      columns={columns}
      rows={operator.erpValues}
      getRowId={(r) => r.paymentMethod}
      totalNumberOfRecords={operator.erpValues.length}
      page={0}
      pageSize={Math.max(operator.erpValues.length, 10)}
      onPageChange={() => undefined}
      emptyText={t('operators.erp.noData')}
      minWidth={520}
    />
  );
}
