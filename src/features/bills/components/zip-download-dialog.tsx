import { useEffect, useRef, useState } from 'react';
import type { BillRow } from '../../../../contract/bills';
import { isApiError } from '../../../api/errors';
import { useLocale, useT } from '../../../i18n/i18n-context';
import { formatNumber } from '../../../i18n/format';
import { isOnline } from '../../../offline/online-status';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { saveFile } from '../../../api/save-file';
import { downloadBillsZip } from '../api/bill-queries';

type ZipState =
  | { step: 'loading'; received: number; total: number | null }
  | { step: 'done'; name: string; received: number }
  | { step: 'failed'; reason: 'offline' | 'notFound' | 'error' };

/** 1 234 567 bytes as '1,2 MB' (decimal comma in German, point in English). */
function bytesText(bytes: number, locale: 'de' | 'en'): string {
  if (bytes < 1024 * 1024) return `${formatNumber(bytes / 1024, locale, 0)} KB`;
  return `${formatNumber(bytes / (1024 * 1024), locale, 1)} MB`;
}

/**
 * The selected bills' PDFs as one zip (spec 3 §2): starts when opened, shows the bills and the
 * bytes received as the answer streams in, and saves it under the server's name ('Rechnungen.zip').
 * Closing it while it loads cancels the download. Offline it says the download needs the network.
 */
export function ZipDownloadDialog({ isOpen, onClose, bills }: { isOpen: boolean; onClose: () => void; bills: readonly BillRow[] }) {
  const t = useT();
  const { locale } = useLocale();
  const [state, setState] = useState<ZipState>(() =>
    isOnline() ? { step: 'loading', received: 0, total: null } : { step: 'failed', reason: 'offline' },
  );
  const started = useRef(false);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    if (started.current || state.step !== 'loading') return;
    started.current = true;
    const controller = new AbortController();
    abort.current = controller;
    downloadBillsZip(bills, (received, total) => setState({ step: 'loading', received, total }), controller.signal)
      .then(({ blob, filename }) => {
        saveFile(blob, filename);
        setState({ step: 'done', name: filename, received: blob.size });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const reason = isApiError(error) && error.status === 404 ? 'notFound' : isOnline() ? 'error' : 'offline';
        setState({ step: 'failed', reason });
      });
  }, [bills, state.step]);

  const close = () => {
    abort.current?.abort();
    onClose();
  };

  let body: string;
  if (state.step === 'loading') {
    const args = { count: bills.length, received: bytesText(state.received, locale) };
    body = state.total ? t('bills.zip.progressOf', { ...args, total: bytesText(state.total, locale) }) : t('bills.zip.progress', args);
  } else if (state.step === 'done')
    body = t('bills.zip.done', { count: bills.length, received: bytesText(state.received, locale), name: state.name });
  else body = t(`bills.zip.${state.reason}`);

  return (
    <Dialog
      isOpen={isOpen}
      onOpenChange={(open) => !open && close()}
      title={t('bills.zip.title')}
      // One way out, named for what it does: cancel while loading, close after.
      hideCloseButton
      size="sm"
      actions={
        <Button variant={state.step === 'loading' ? 'secondary' : 'primary'} onPress={close}>
          {t(state.step === 'loading' ? 'bills.zip.cancel' : 'bills.zip.close')}
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        <p role="status" aria-live="polite" data-testid="zip-progress" data-step={state.step}>
          {body}
        </p>
        {state.step === 'loading' && (
          <progress
            className="h-2 w-full"
            aria-label={t('bills.zip.title')}
            max={state.total ?? undefined}
            value={state.total ? state.received : undefined}
          />
        )}
      </div>
    </Dialog>
  );
}
