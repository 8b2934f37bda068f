import { useMutation } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Button as AriaButton } from 'react-aria-components/Button';
import { Dialog, DialogTrigger } from 'react-aria-components/Dialog';
import { Popover } from 'react-aria-components/Popover';
import { billHasPdf, isStripePaymentState, type BillRow } from '../../../../contract/bills';
import { useFormat } from '../../../i18n/format';
import { useT } from '../../../i18n/i18n-context';
import { isOnline } from '../../../offline/online-status';
import { Button } from '../../../ui/button';
import type { DataTableColumn } from '../../../ui/data-table';
import { InfoIcon } from '../../../ui/icons';
import { showNotice } from '../../../ui/notices';
import { StatusBadge } from '../../../ui/status-badge';
import { billPdfMutation } from '../api/bill-queries';
import { billStatusColours } from '../bill-status';

function paymentStateLabel(t: ReturnType<typeof useT>, state: string | null): string {
  if (state === null) return '–';
  return t(`bills.sepa.paymentStates.${isStripePaymentState(state) ? state : 'other'}`);
}

/** The bill's PDF in a new tab: fetched with the bearer token as a blob, as the contract PDF is. */
function PdfLink({ bill }: { bill: BillRow }) {
  const t = useT();
  const pdf = useMutation(billPdfMutation());
  const open = async () => {
    if (!isOnline()) {
      showNotice({ id: 'bill-pdf', tone: 'info', message: t('bills.pdf.offline'), timeout: 6_000 });
      return;
    }
    // Opened before the download so a popup blocker allows it; filled once the file is there.
    const win = window.open('', '_blank');
    try {
      const url = URL.createObjectURL(await pdf.mutateAsync(bill));
      if (win) win.location.href = url;
      else window.open(url, '_blank');
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch {
      win?.close();
      showNotice({ id: 'bill-pdf', tone: 'error', message: t(isOnline() ? 'bills.pdf.error' : 'bills.pdf.offline'), timeout: 6_000 });
    }
  };
  return (
    // The press is the button's: the table row around it must not take it as a press on the row
    // and toggle the bill's selection (as the kit's links do).
    <span
      className="contents"
      onPointerDown={(event) => event.stopPropagation()}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') event.stopPropagation();
      }}
      onClick={(event) => event.stopPropagation()}
    >
      <Button
        size="sm"
        variant="ghost"
        onPress={() => void open()}
        isPending={pdf.isPending}
        aria-label={t('bills.pdf.openFor', { number: bill.billNumber })}
      >
        {t('bills.pdf.open')}
      </Button>
    </span>
  );
}

/**
 * STRIPE_SEPA bills (spec 3 §2): the collection date or 'not yet sent', the payment intent and its
 * status, in the user's language (Stripe's own word never shows).
 */
export function SepaInfo({ bill }: { bill: BillRow }) {
  const t = useT();
  const f = useFormat();
  const rows: [string, string][] = [
    [t('bills.sepa.collectionDate'), bill.billCollectionDate ? f.date(bill.billCollectionDate) : t('bills.sepa.notSent')],
    [t('bills.sepa.paymentIntentId'), bill.stripeSepaPaymentIntentId ?? '–'],
    [t('bills.sepa.paymentStatus'), paymentStateLabel(t, bill.stripeSepaBillPaymentStatus)],
  ];
  return (
    <DialogTrigger>
      <AriaButton
        aria-label={t('bills.sepa.info', { number: bill.billNumber })}
        className="inline-flex size-11 items-center justify-center rounded-md text-muted outline-none hover:bg-surface-2 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
      >
        <InfoIcon size={18} />
      </AriaButton>
      <Popover placement="bottom" className="max-w-xs rounded-md border border-border bg-surface p-3 text-sm shadow-lg outline-none">
        <Dialog aria-label={t('bills.sepa.title')} className="outline-none" data-testid="sepa-info">
          <p className="mb-2 font-semibold">{t('bills.sepa.title')}</p>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
            {rows.map(([label, value]) => (
              <div key={label} className="contents">
                <dt className="text-muted">{label}</dt>
                <dd className="break-all">{value}</dd>
              </div>
            ))}
          </dl>
        </Dialog>
      </Popover>
    </DialogTrigger>
  );
}

/** The spec's columns (spec 3 §2), money de-DE EUR, dates dd.MM.yyyy, statuses in their colours. */
export function useBillColumns(): DataTableColumn<BillRow>[] {
  const t = useT();
  const f = useFormat();
  return useMemo<DataTableColumn<BillRow>[]>(
    () => [
      {
        id: 'billNumber',
        header: t('bills.columns.billNumber'),
        cell: (r) => (
          // The PDF link goes under the number where the table is narrow (a portrait tablet), so the
          // amount stays in view without sideways scrolling.
          <span className="inline-flex flex-wrap items-center gap-x-1">
            <span className="whitespace-nowrap" data-testid="bill-number">
              {r.billNumber}
            </span>
            {billHasPdf(r) && <PdfLink bill={r} />}
          </span>
        ),
        isRowHeader: true,
      },
      { id: 'endCustomerId', header: t('bills.columns.endCustomerId'), cell: (r) => r.endCustomerId, noWrap: true, fold: 'xl' },
      { id: 'name', header: t('bills.columns.name'), cell: (r) => `${r.endCustomerFirstName} ${r.endCustomerLastName}` },
      { id: 'userType', header: t('bills.columns.userType'), cell: (r) => t(`users.userTypes.${r.userType}`), fold: 'xl' },
      {
        id: 'paymentMethod',
        header: t('bills.columns.paymentMethod'),
        cell: (r) =>
          r.paymentMethod ? (
            <span className="inline-flex items-center gap-1">
              {t(`users.paymentMethods.${r.paymentMethod}`)}
              {r.paymentMethod === 'STRIPE_SEPA' && <SepaInfo bill={r} />}
            </span>
          ) : (
            '–'
          ),
        fold: 'lg',
      },
      {
        id: 'billingStatus',
        header: t('bills.columns.billingStatus'),
        cell: (r) =>
          r.billingStatus ? (
            <StatusBadge color={billStatusColours[r.billingStatus]}>
              <span data-testid="bill-status">{t(`users.billStatuses.${r.billingStatus}`)}</span>
            </StatusBadge>
          ) : (
            '–'
          ),
        noWrap: true,
      },
      {
        id: 'totalTaxedCosts',
        header: t('bills.columns.totalTaxedCosts'),
        cell: (r) => f.money(r.totalTaxedCosts),
        align: 'end',
        noWrap: true,
      },
      {
        id: 'generationDate',
        header: t('bills.columns.generationDate'),
        cell: (r) => f.date(r.billGenerationDate),
        noWrap: true,
        fold: 'lg',
      },
      { id: 'downloadDate', header: t('bills.columns.downloadDate'), cell: (r) => f.date(r.billDownloadDate), noWrap: true, fold: 'xl' },
      {
        id: 'collectionDate',
        header: t('bills.columns.collectionDate'),
        cell: (r) => f.date(r.billCollectionDate),
        noWrap: true,
        fold: 'lg',
      },
    ],
    [t, f],
  );
}
