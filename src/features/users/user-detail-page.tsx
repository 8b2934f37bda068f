import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState, type ReactNode } from 'react';
import type { ContractDetail } from '../../../contract/contracts';
import { DEFAULT_VAT_PERCENT } from '../../../contract/enums';
import { formatNumber, useFormat } from '../../i18n/format';
import { useT } from '../../i18n/i18n-context';
import { DetailPage } from '../../layout/detail-page';
import { DataAgeNote } from '../../offline/data-age-note';
import { usePendingFor } from '../../offline/outbox-react';
import { contractStatusMessageId } from '../../shared/connector-status';
import { Button } from '../../ui/button';
import { Card } from '../../ui/card';
import { showNotice } from '../../ui/notices';
import { StatusBadge } from '../../ui/status-badge';
import { ToggleButtonGroup } from '../../ui/toggle-button-group';
import { fetchContractPdf, userDetailQueryOptions } from './api/user-queries';
import { contractScope } from './api/user-writes';
import { PendingValue } from '../../offline/pending-value';
import { SendBillButton } from './components/send-bill-button';
import { UserActions, type UserReopen } from './user-actions';
import { maskIban, upcomingTariffChange } from './user-rules';

// The history table and its date field load when the user switches to the history view.
const UserHistory = lazy(() => import('./components/user-history').then((m) => ({ default: m.UserHistory })));

export interface UserDetailPageProps {
  contractKey: string;
  /** A form to open at once (the outbox's 'Erneut bearbeiten'). */
  reopen?: UserReopen;
  onReopened?: () => void;
}

type View = 'data' | 'history';

/**
 * /nutzer/{id} (spec 2 §2): 'user management' with the back button and the actions menu; the
 * contract in cards (customer, authorisation, payment and ERP, contract terms, billing when billed)
 * and, toggled, the user's charging history with its CSV download.
 */
export function UserDetailPage({ contractKey, reopen, onReopened }: UserDetailPageProps) {
  const t = useT();
  const options = userDetailQueryOptions(contractKey);
  const query = useQuery(options);
  const [view, setView] = useState<View>('data');

  return (
    <DetailPage
      query={query}
      messages="users.detail"
      backHref="/nutzer"
      header={(contract) => ({
        description: `${contract.endCustomerId} · ${contract.firstName} ${contract.lastName}`,
        actions: (
          <>
            <PendingNote contractKey={contract.contractKey} />
            <DataAgeNote queryKey={options.queryKey} />
            <UserActions contract={contract} reopen={reopen} onReopened={onReopened} />
          </>
        ),
      })}
    >
      {(contract) => (
        <>
          <ToggleButtonGroup
            aria-label={t('users.detail.viewLabel')}
            items={[
              { id: 'data', label: t('users.detail.dataView') },
              { id: 'history', label: t('users.detail.historyView') },
            ]}
            value={view}
            onChange={(id) => setView(id as View)}
            className="self-start"
          />
          {view === 'data' ? (
            <ContractCards contract={contract} />
          ) : (
            <Suspense fallback={null}>
              <UserHistory contractKey={contract.contractKey} />
            </Suspense>
          )}
        </>
      )}
    </DetailPage>
  );
}

/** 'wird gesendet' while a write of this contract waits in the outbox, 'nicht gespeichert' when one was refused. */
function PendingNote({ contractKey }: { contractKey: string }) {
  const t = useT();
  const pending = usePendingFor(contractScope(contractKey));
  if (pending.length === 0) return null;
  const failed = pending.some((w) => w.state === 'failed');
  return (
    <StatusBadge tone={failed ? 'danger' : 'info'}>
      <span data-testid="user-pending">{t(failed ? 'users.detail.failed' : 'users.detail.pending')}</span>
    </StatusBadge>
  );
}

/** Label and value rows of a card; a row without a value shows '–'. */
function Facts({ rows }: { rows: readonly (readonly [string, ReactNode] | null | false)[] }) {
  return (
    <dl className="grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-[minmax(10rem,auto)_1fr]">
      {rows
        .filter((r): r is readonly [string, ReactNode] => !!r)
        .map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-muted">{label}</dt>
            <dd className="mb-2 break-words sm:mb-0">{value === null || value === undefined || value === '' ? '–' : value}</dd>
          </div>
        ))}
    </dl>
  );
}

function ContractCards({ contract: c }: { contract: ContractDetail }) {
  const t = useT();
  const f = useFormat();
  const [opening, setOpening] = useState(false);
  // Money reads de-DE in both languages (spec 1 §9), as formatMoney does.
  const eur = (v: number | null, unit: string) => (v === null ? null : `${formatNumber(v, 'de', 2)} ${unit}`);
  const isAdminType = c.userType === 'LOCAL_ADMIN' || c.userType === 'GLOBAL_ADMIN';
  const withBilling = c.billingType === 'WITH_BILLING';
  const a = c.contractAddress;
  const pending = upcomingTariffChange(c);

  const openPdf = async () => {
    // Opened before the download so a popup blocker allows it; filled once the file is there.
    const win = window.open('', '_blank');
    setOpening(true);
    try {
      const { blob } = await fetchContractPdf(c.contractKey, c.contractId);
      const url = URL.createObjectURL(blob);
      if (win) win.location.href = url;
      else window.open(url, '_blank');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      win?.close();
      showNotice({ id: 'contract-pdf', tone: 'error', message: t('errors.serverAgain'), timeout: 6_000 });
    } finally {
      setOpening(false);
    }
  };

  return (
    <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
      <Card title={t('users.cards.customer')}>
        <Facts
          rows={[
            [t('users.fields.endCustomerId'), c.endCustomerId],
            [t('users.fields.contractNumber'), c.contractNumber],
            [t('users.fields.userType'), t(`users.userTypes.${c.userType}`)],
            [
              t('users.fields.name'),
              <PendingValue key="name" scope={contractScope(c.contractKey)} field="name" value={`${c.firstName} ${c.lastName}`} />,
            ],
            [t('users.fields.email'), <PendingValue key="email" scope={contractScope(c.contractKey)} field="email" value={c.email} />],
            [t('users.fields.companyName'), c.companyName],
            !!c.companyName && [t('users.fields.customerVatId'), c.customerVatId],
            !!c.companyName && [t('users.fields.buyerReference'), c.buyerReference],
            [
              t('users.fields.address'),
              <PendingValue key="address" scope={contractScope(c.contractKey)} field="address" value={a}>
                {(shown) => {
                  const address = shown as typeof a;
                  return (
                    <span className="flex flex-col" data-testid="user-address">
                      {address.careOf && <span>{`c/o ${address.careOf}`}</span>}
                      <span>{address.street}</span>
                      <span>{`${address.zipCode} ${address.city}`}</span>
                    </span>
                  );
                }}
              </PendingValue>,
            ],
            [t('users.fields.operator'), `${c.cpoId}: ${c.cpoName}`],
          ]}
        />
      </Card>
      <Card title={t('users.cards.authorisation')}>
        <Facts
          rows={[
            !isAdminType && [t('users.fields.location'), c.locationId ? `${c.locationId}: ${c.locationName ?? ''}` : null],
            !isAdminType && [t('users.fields.parkingLots'), c.parkingLotNumbers.join(', ')],
            [t('users.fields.authType'), t(`users.authTypes.${c.authType}`)],
            [t('users.fields.rfidTags'), c.rfidTags.join(', ')],
            [t('users.fields.rfidSerials'), c.rfidSerialId.join(', ')],
            [
              t('users.fields.status'),
              <StatusBadge color={c.contractStatusMapping.colourCode} wrap>
                <span data-testid="detail-contract-status">{t(contractStatusMessageId(c.contractStatus))}</span>
              </StatusBadge>,
            ],
          ]}
        />
      </Card>
      <Card title={t('users.cards.payment')}>
        <Facts
          rows={[
            [t('users.fields.billingType'), t(`users.billingTypes.${c.billingType}`)],
            withBilling && [t('users.fields.paymentMethod'), c.paymentMethod ? t(`users.paymentMethods.${c.paymentMethod}`) : null],
            withBilling && [t('users.fields.mandateReference'), c.contractPaymentDetails.contractMandateReference],
            withBilling && [t('users.create.iban'), maskIban(c.contractPaymentDetails.contractIban)],
            [t('users.fields.debitAccountNr'), c.erpSystemParameters.debitAccountNr],
            [t('users.fields.costCenterNumber'), c.erpSystemParameters.costCenterNumber],
            [
              t('users.fields.vatId'),
              c.erpSystemParameters.vatId ? `${c.erpSystemParameters.vatId} %` : withBilling ? `${DEFAULT_VAT_PERCENT} %` : null,
            ],
          ]}
        />
      </Card>
      <Card title={t('users.cards.terms')}>
        <Facts
          rows={[
            [t('users.fields.startDate'), f.date(c.contractInfo.startDate)],
            [t('users.fields.endDate'), c.contractInfo.endDate ? f.date(c.contractInfo.endDate) : t('users.fields.unlimited')],
            [
              t('users.fields.contractPdf'),
              c.pdfAvailable ? (
                <Button variant="secondary" size="sm" onPress={() => void openPdf()} isPending={opening}>
                  {c.contractInfo.contractPDF ?? t('users.fields.openPdf')}
                </Button>
              ) : null,
            ],
          ]}
        />
      </Card>
      {withBilling && (
        <Card title={t('users.cards.billing')} className="lg:col-span-2" actions={<SendBillButton contract={c} />}>
          <Facts
            rows={[
              [t('users.fields.billingCycle'), c.billingCycle ? t(`users.billingCycles.${c.billingCycle}`) : null],
              [t('users.fields.billingStatus'), c.billingStatus ? t(`users.billStatuses.${c.billingStatus}`) : null],
              [t('users.fields.fixTariff'), eur(c.contractInfo.fixTariff, t('users.units.perMonth'))],
              [t('users.fields.varTariff'), eur(c.contractInfo.varTariff, t('users.units.perKwh'))],
              [t('users.fields.onboardingFee'), eur(c.contractInfo.onboardingFee, '€')],
              [t('users.fields.feePerRequest'), eur(c.contractInfo.fixTariffPerChargingRequest, t('users.units.perRequest'))],
            ]}
          />
          {pending && (
            <div
              role="note"
              data-testid="pending-tariff"
              className="mt-4 rounded-md border border-primary bg-primary-soft px-3 py-2 text-sm"
            >
              <p className="font-semibold">{t('users.pendingTariff.title', { date: f.date(pending.newTariffDate) })}</p>
              <p>
                {t('users.pendingTariff.text', {
                  fix: eur(pending.fixTariff, t('users.units.perMonth')) ?? '',
                  var: eur(pending.varTariff, t('users.units.perKwh')) ?? '',
                  fee: eur(pending.onboardingFee, '€') ?? '',
                  perRequest: eur(pending.fixTariffPerChargingRequest, t('users.units.perRequest')) ?? '',
                  cancellation: f.date(pending.newTariffCancellationDate),
                })}
              </p>
            </div>
          )}
        </Card>
      )}
    </div>
  );
}
