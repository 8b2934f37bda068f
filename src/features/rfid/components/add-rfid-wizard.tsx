import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { RFID_SAVE_MAX } from '../../../../contract/rfid';
import { useT } from '../../../i18n/i18n-context';
import { AlertDialog } from '../../../ui/alert-dialog';
import { Button } from '../../../ui/button';
import { CloseIcon } from '../../../ui/icons';
import { TextField } from '../../../ui/text-field';
import { validationMessage } from '../../../ui/validation';
import { Wizard } from '../../../ui/wizard';
import { saveRfidTagsMutation } from '../api/rfid-queries';
import { buildRfidPayload, emptyRow, rowErrors, rowsValid, saveFailure, type RfidRowValues, type SaveFailure } from '../rfid-form';

type Outcome = { kind: 'saved'; count: number } | { kind: 'failed'; failure: SaveFailure } | null;

/**
 * 'add RFID' (spec 2 §2): rows of serial number and tag (both required, added and removed), then
 * confirm and save. All or none are saved; values in use are listed in the error dialog.
 */
export function AddRfidWizard({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [rows, setRows] = useState<RfidRowValues[]>(() => [emptyRow()]);
  const [shown, setShown] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const reset = () => {
    setRows([emptyRow()]);
    setShown(new Set());
    setSubmitted(false);
  };
  const update = (key: number, patch: Partial<RfidRowValues>) => setRows((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));

  const save = useMutation({
    ...saveRfidTagsMutation(),
    onSuccess: (answer) => {
      onClose();
      setOutcome({ kind: 'saved', count: answer.saved });
    },
    onError: (error) => setOutcome({ kind: 'failed', failure: saveFailure(error) }),
  });

  const valid = rowsValid(rows);
  const entries = buildRfidPayload(rows);
  return (
    <>
      <Wizard
        isOpen={isOpen}
        onClose={onClose}
        onReset={reset}
        size="lg"
        title={t('rfid.add.title')}
        submitLabel={t('ui.common.save')}
        isSubmitting={save.isPending}
        onSubmit={() => save.mutateAsync(entries).catch(() => undefined)}
        steps={[
          {
            id: 'enter',
            title: t('rfid.add.stepEnter'),
            isValid: valid,
            onNext: () => {
              setSubmitted(true);
              return valid;
            },
            content: (
              <div className="flex flex-col gap-4">
                <p className="text-muted">{t('rfid.add.intro')}</p>
                <ol className="flex flex-col gap-3">
                  {rows.map((row, index) => {
                    const errors = rowErrors(row);
                    const show = (field: string) => submitted || shown.has(`${row.key}.${field}`);
                    const blur = (field: string) => () => setShown((s) => new Set(s).add(`${row.key}.${field}`));
                    return (
                      <li key={row.key} className="grid items-start gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]">
                        <TextField
                          label={t('rfid.add.serialNumber', { n: index + 1 })}
                          isRequired
                          fullWidth
                          autoFocus={index === rows.length - 1}
                          autoComplete="off"
                          spellCheck={false}
                          value={row.serialNumber}
                          onChange={(serialNumber) => update(row.key, { serialNumber })}
                          onBlur={blur('serialNumber')}
                          errorMessage={show('serialNumber') ? validationMessage(t, errors.serialNumber) : undefined}
                        />
                        <TextField
                          label={t('rfid.add.rfidTag', { n: index + 1 })}
                          isRequired
                          fullWidth
                          autoComplete="off"
                          spellCheck={false}
                          value={row.rfidTag}
                          onChange={(rfidTag) => update(row.key, { rfidTag })}
                          onBlur={blur('rfidTag')}
                          errorMessage={show('rfidTag') ? validationMessage(t, errors.rfidTag) : undefined}
                        />
                        <Button
                          variant="ghost"
                          iconOnly
                          aria-label={t('rfid.add.remove', { n: index + 1 })}
                          isDisabled={rows.length === 1}
                          onPress={() => setRows((rs) => rs.filter((r) => r.key !== row.key))}
                          className="sm:mt-7"
                        >
                          <CloseIcon aria-hidden />
                        </Button>
                      </li>
                    );
                  })}
                </ol>
                <div>
                  <Button
                    variant="secondary"
                    isDisabled={rows.length >= RFID_SAVE_MAX}
                    onPress={() => setRows((rs) => [...rs, emptyRow()])}
                  >
                    {t('rfid.add.addRow')}
                  </Button>
                </div>
              </div>
            ),
          },
          {
            id: 'confirm',
            title: t('rfid.add.stepConfirm'),
            isValid: valid,
            content: (
              <div className="flex flex-col gap-3">
                <p className="text-muted">{t('rfid.add.confirmHint', { count: entries.length })}</p>
                <table className="w-full text-left" data-testid="rfid-confirm">
                  <thead>
                    <tr className="border-b border-border">
                      <th scope="col" className="py-2 pr-4 font-medium text-muted">
                        {t('rfid.columns.serialId')}
                      </th>
                      <th scope="col" className="py-2 font-medium text-muted">
                        {t('rfid.columns.rfidTag')}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {entries.map((e, i) => (
                      <tr key={i} className="border-b border-border last:border-0">
                        <td className="py-2 pr-4 break-all text-fg">{e.serialNumber}</td>
                        <td className="py-2 break-all text-fg">{e.rfidTag}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            ),
          },
        ]}
      />
      <AlertDialog isOpen={outcome?.kind === 'saved'} onClose={() => setOutcome(null)} variant="success" title={t('rfid.add.savedTitle')}>
        {outcome?.kind === 'saved' && <p>{t('rfid.add.savedText', { count: outcome.count })}</p>}
      </AlertDialog>
      <AlertDialog
        isOpen={outcome?.kind === 'failed'}
        onClose={() => setOutcome(null)}
        variant="error"
        title={outcome?.kind === 'failed' && outcome.failure.kind === 'exists' ? t('rfid.errors.existsTitle') : t('errors.title')}
      >
        {outcome?.kind === 'failed' && <FailureText failure={outcome.failure} />}
      </AlertDialog>
    </>
  );
}

function FailureText({ failure }: { failure: SaveFailure }) {
  const t = useT();
  if (failure.kind === 'offline') return <p>{t('errors.offline')}</p>;
  if (failure.kind === 'generic') return <p>{t('errors.somethingWrong')}</p>;
  return (
    <div className="flex flex-col gap-2">
      <p>{t('rfid.errors.exists')}</p>
      <ul className="flex flex-col gap-1" data-testid="rfid-conflicts">
        {failure.conflicts.map((c) => (
          <li key={`${c.field}|${c.value}`} className="break-all">
            {c.endCustomerId
              ? t(`rfid.errors.${c.field}InUseBy`, { value: c.value, endCustomerId: c.endCustomerId })
              : t(`rfid.errors.${c.field}InUse`, { value: c.value })}
          </li>
        ))}
      </ul>
    </div>
  );
}
