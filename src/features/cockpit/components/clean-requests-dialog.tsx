import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { isNetworkError } from '../../../api/errors';
import { useT } from '../../../i18n/i18n-context';
import { AlertDialog } from '../../../ui/alert-dialog';
import { Button } from '../../../ui/button';
import { Dialog } from '../../../ui/dialog';
import { TextField } from '../../../ui/text-field';
import { digitsOnly, validationMessage } from '../../../ui/validation';
import { cleanChargingRequestsMutation } from '../api/cockpit-queries';

/** Minutes as typed → a whole number above 0, or null (the action stays disabled). */
export function parseThreshold(value: string): number | null {
  const v = value.trim();
  if (!/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

type Outcome = { kind: 'done'; changed: number } | { kind: 'failed'; offline: boolean } | null;

/** Admin action (spec 1 §2, §6): close charging requests stuck before charging for longer than N minutes. */
export function CleanRequestsButton() {
  const t = useT();
  const [isOpen, setOpen] = useState(false);
  const [threshold, setThreshold] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const minutes = parseThreshold(threshold);
  const formatError = digitsOnly(threshold);

  const clean = useMutation({
    ...cleanChargingRequestsMutation(),
    onSuccess: ({ changed }) => {
      setOpen(false);
      setThreshold('');
      setOutcome({ kind: 'done', changed });
    },
    onError: (error) => {
      setOpen(false);
      setOutcome({ kind: 'failed', offline: isNetworkError(error) });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (minutes !== null && !clean.isPending) clean.mutate(minutes);
  };

  return (
    <>
      <Button variant="secondary" onPress={() => setOpen(true)}>
        {t('cockpit.clean.button')}
      </Button>
      <Dialog
        isOpen={isOpen}
        onOpenChange={(open) => {
          if (!clean.isPending) setOpen(open);
        }}
        title={t('cockpit.clean.title')}
        size="md"
        actions={
          <>
            <Button variant="secondary" onPress={() => setOpen(false)} isDisabled={clean.isPending}>
              {t('ui.common.cancel')}
            </Button>
            <Button type="submit" form="clean-requests-form" isDisabled={minutes === null} isPending={clean.isPending}>
              {t('cockpit.clean.submit')}
            </Button>
          </>
        }
      >
        <form id="clean-requests-form" noValidate onSubmit={submit} className="flex flex-col gap-4">
          <p className="text-base text-fg">{t('cockpit.clean.text')}</p>
          <TextField
            label={t('cockpit.clean.threshold')}
            type="number"
            autoFocus
            isRequired
            maxLength={8}
            value={threshold}
            onChange={setThreshold}
            description={t('cockpit.clean.thresholdHint')}
            errorMessage={validationMessage(t, formatError)}
          />
        </form>
      </Dialog>
      <AlertDialog
        isOpen={outcome !== null}
        onClose={() => setOutcome(null)}
        variant={outcome?.kind === 'done' ? 'success' : 'error'}
        title={outcome?.kind === 'done' ? t('cockpit.clean.successTitle') : t('errors.mistake')}
      >
        <span data-testid="clean-outcome">
          {outcome?.kind === 'done'
            ? t('cockpit.clean.success', { count: outcome.changed })
            : outcome?.offline
              ? t('errors.offline')
              : t('errors.somethingWrong')}
        </span>
      </AlertDialog>
    </>
  );
}
