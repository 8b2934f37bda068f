import { useEffect, useRef, useState } from 'react';
import { sepaDebitErrorCodes } from '../../../../contract/downloads';
import { saveFile } from '../../../api/save-file';
import { formatNumber } from '../../../i18n/format';
import { useLocale, useT } from '../../../i18n/i18n-context';
import { useOnlineStatus } from '../../../offline/online-status';
import { AlertDialog } from '../../../ui/alert-dialog';
import { Button } from '../../../ui/button';
import { runDownload, type DownloadKind, type DownloadOutcome, type DownloadQuery } from '../api/download-requests';

type RunState =
  | { step: 'idle' }
  | { step: 'loading'; kind: DownloadKind; received: number }
  | { step: 'saved'; name: string; size: number }
  | { step: 'cancelled' };

/** 1 234 bytes as '1,2 KB' (decimal comma in German). */
export function bytesText(bytes: number, locale: 'de' | 'en'): string {
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, locale, 1)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), locale, 1)} MB`;
}

/**
 * One download at a time: its progress (bytes received, as the server streams) and its cancel
 * (an AbortController); the form beside it keeps its values whatever happens. What is not a file
 * (204, 404, a missing ERP value) comes back as `problem` for the dialog.
 */
export function useDownloadRunner() {
  const [state, setState] = useState<RunState>({ step: 'idle' });
  const [problem, setProblem] = useState<Exclude<DownloadOutcome, { kind: 'saved' }> | null>(null);
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = (kind: DownloadKind, query: DownloadQuery) => {
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setState({ step: 'loading', kind, received: 0 });
    runDownload(kind, query, (received) => setState({ step: 'loading', kind, received }), controller.signal)
      .then((outcome) => {
        if (controller.signal.aborted) return;
        if (outcome.kind === 'saved') {
          saveFile(outcome.blob, outcome.filename);
          setState({ step: 'saved', name: outcome.filename, size: outcome.blob.size });
        } else {
          setState({ step: 'idle' });
          setProblem(outcome);
        }
      })
      .catch(() => {
        if (controller.signal.aborted) return;
        setState({ step: 'idle' });
        setProblem({ kind: 'failed' });
      });
  };
  const cancel = () => {
    abort.current?.abort();
    abort.current = null;
    setState({ step: 'cancelled' });
  };
  return { state, problem, clearProblem: () => setProblem(null), start, cancel, isLoading: state.step === 'loading' };
}

export type DownloadRunner = ReturnType<typeof useDownloadRunner>;

/**
 * The tab's download buttons: disabled while the form is incomplete or wrong, or while a file
 * loads; offline they say the network is needed instead of failing.
 */
export function DownloadButtons({
  runner,
  canDownload,
  buttons,
}: {
  runner: DownloadRunner;
  canDownload: boolean;
  buttons: Array<{ kind: DownloadKind; label: string; onPress: () => void }>;
}) {
  const t = useT();
  const online = useOnlineStatus();
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap gap-2">
        {buttons.map((b) => (
          <Button key={b.kind} isDisabled={!online || !canDownload || runner.isLoading} onPress={b.onPress}>
            {online ? b.label : t('downloads.needsNetwork')}
          </Button>
        ))}
      </div>
      <DownloadProgress runner={runner} />
    </div>
  );
}

function DownloadProgress({ runner }: { runner: DownloadRunner }) {
  const t = useT();
  const { locale } = useLocale();
  const { state } = runner;
  let text = '';
  if (state.step === 'loading') text = t('downloads.progress', { received: bytesText(state.received, locale) });
  else if (state.step === 'saved') text = t('downloads.saved', { name: state.name, size: bytesText(state.size, locale) });
  else if (state.step === 'cancelled') text = t('downloads.cancelled');
  return (
    <div className="flex min-h-11 flex-wrap items-center gap-3">
      <p role="status" aria-live="polite" data-testid="download-status" data-step={state.step}>
        {text}
      </p>
      {state.step === 'loading' && (
        <>
          <progress className="h-2 w-40" aria-label={t('downloads.progressLabel')} />
          <Button variant="secondary" onPress={runner.cancel}>
            {t('downloads.cancel')}
          </Button>
        </>
      )}
    </div>
  );
}

const unknownOne = new Set(['XML_GENERATION_ERROR', 'UNKNOWN_ERROR']);
const namedCodes = new Set([
  'BILLING_NOT_FOUND',
  'CONTRACT_NOT_FOUND',
  'OPERATOR_NOT_FOUND',
  'ERP_VALUE_NOT_FOUND',
  'ERP_SYSTEM_PARAMETERS_NOT_FOUND',
  'DEBIT_ACCOUNT_NR_MISSING',
  'COST_CENTER_NR_MISSING',
  'VAT_ID_MISSING',
  'CLIENT_NUMBER_MISSING',
  'NET_LEDGER_ACCOUNT_NUMBER_MISSING',
  'ERP_VALUE_INVALID',
  // The SEPA file's own codes (its others are the ERP files' too).
  ...sepaDebitErrorCodes.filter((code) => code.startsWith('SEPA_')),
]);

/** The message key of an ERP answer code (spec 3 §8): its own text, 'unknown error 1' or '2'. */
export function missingInfoKey(code: string): string {
  if (namedCodes.has(code)) return `downloads.missingInfo.codes.${code}`;
  return unknownOne.has(code) ? 'downloads.missingInfo.unknown1' : 'downloads.missingInfo.unknown2';
}

const detailKeys = [
  'missing',
  'invalid',
  'value',
  'endCustomerId',
  'cpoId',
  'paymentMethod',
  'contractNumbers',
  'billNumbers',
  'billsWithOtherPaymentMethods',
  'max',
] as const;
const missingFields = new Set([
  'clientNumber',
  'netLedgerAccountNr',
  'taxLedgerAccountNr',
  'clearingAccountNr',
  'consultantNumber',
  'cpoName',
  'debitAccountNr',
  'costCenterNumber',
  'text',
]);

/** The answer's errorDetail as labelled lines; the missing field by its name in the ERP form. */
export function detailLines(detail: unknown, t: (key: string) => string): string[] {
  if (!detail || typeof detail !== 'object') return typeof detail === 'string' ? [detail] : [];
  const d = detail as Record<string, unknown>;
  return detailKeys.flatMap((key) => {
    const v = d[key];
    if (v === undefined || v === null || v === '') return [];
    let value = Array.isArray(v) ? v.map(String).join(', ') : String(v as string | number);
    if ((key === 'missing' || key === 'invalid') && missingFields.has(value)) value = t(`downloads.missingInfo.fields.${value}`);
    return [`${t(`downloads.missingInfo.detail.${key}`)}: ${value}`];
  });
}

/** What a download answered instead of a file (spec 1 §8, spec 3 §8); `noData` the text for a 204 when not the range's. */
export function DownloadProblemDialog({ runner, noData = 'downloads.noData' }: { runner: DownloadRunner; noData?: string }) {
  const t = useT();
  const p = runner.problem;
  if (!p) return null;
  const close = runner.clearProblem;
  if (p.kind === 'missingInfo')
    return (
      <AlertDialog isOpen onClose={close} variant="warning" title={t('downloads.missingInfo.title')}>
        <p>{t(missingInfoKey(p.code))}</p>
        <ul className="mt-2 list-disc pl-5" data-testid="missing-info-detail">
          {detailLines(p.detail, t).map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </AlertDialog>
    );
  const [title, body] =
    p.kind === 'notFound'
      ? ['downloads.title404', 'downloads.body404']
      : p.kind === 'noData'
        ? ['downloads.noDataTitle', noData]
        : p.kind === 'oneYear'
          ? ['downloads.oneYearTitle', 'downloads.oneYear']
          : ['downloads.errorTitle', 'downloads.error'];
  return (
    <AlertDialog isOpen onClose={close} variant={p.kind === 'failed' ? 'error' : 'warning'} title={t(title)}>
      <p>{t(body)}</p>
    </AlertDialog>
  );
}
