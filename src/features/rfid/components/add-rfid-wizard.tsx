import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { RFID_SAVE_MAX, type RfidConflict } from '../../../../contract/rfid';
import { useT } from '../../../i18n/i18n-context';
import { CreateWizard } from '../../../layout/create-wizard';
import { Button } from '../../../ui/button';
import { CloseIcon } from '../../../ui/icons';
import { TextField } from '../../../ui/text-field';
import { validationMessage } from '../../../ui/validation';
import { saveRfidTagsMutation } from '../api/rfid-queries';
import { buildRfidPayload, emptyRow, rowErrors, rowsValid, saveFailure, type RfidRowValues } from '../rfid-form';

/**
 * 'add RFID' (spec 2 §2): rows of serial number and tag (both required, added and removed), then
 * confirm and save. All or none are saved; values in use are listed in the error dialog.
 */
export function AddRfidWizard({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const [rows, setRows] = useState<RfidRowValues[]>(() => [emptyRow()]);
  const [shown, setShown] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);

  const reset = () => {
    setRows([emptyRow()]);
    setShown(new Set());
    setSubmitted(false);
  };
  const change = (next: (rows: RfidRowValues[]) => RfidRowValues[]) => setRows(next);

  const save = useMutation(saveRfidTagsMutation());

  const failure = (error: unknown) => {
    const found = saveFailure(error);
    if (found.kind !== 'exists') return undefined;
    return { title: t('rfid.errors.existsTitle'), body: <Conflicts conflicts={found.conflicts} /> };
  };

  const valid = rowsValid(rows);
  return (
    <CreateWizard
      isOpen={isOpen}
      onClose={onClose}
      onReset={reset}
      size="lg"
      title={t('rfid.add.title')}
      submitLabel={t('ui.common.save')}
      send={() => save.mutateAsync(buildRfidPayload(rows))}
      isSending={save.isPending}
      successTitle={t('rfid.add.savedTitle')}
      successBody={(answer) => <p>{t('rfid.add.savedText', { count: answer.saved })}</p>}
      failure={failure}
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
            <RowsStep
              rows={rows}
              onChange={change}
              onAdd={() => setRows((rs) => [...rs, emptyRow()])}
              isShown={(key) => submitted || shown.has(key)}
              onShow={(key) => setShown((s) => new Set(s).add(key))}
            />
          ),
        },
        {
          id: 'confirm',
          title: t('rfid.add.stepConfirm'),
          isValid: valid,
          content: <ConfirmStep entries={buildRfidPayload(rows)} />,
        },
      ]}
    />
  );
}

interface RowsStepProps {
  rows: RfidRowValues[];
  onChange: (next: (rows: RfidRowValues[]) => RfidRowValues[]) => void;
  onAdd: () => void;
  /** Whether a field's error shows (`<row key>.<field>`): once left, or after Next was pressed. */
  isShown: (key: string) => boolean;
  onShow: (key: string) => void;
}

function RowsStep({ rows, onChange, onAdd, isShown, onShow }: RowsStepProps) {
  const t = useT();
  const update = (key: number, patch: Partial<RfidRowValues>) => onChange((rs) => rs.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted">{t('rfid.add.intro')}</p>
      <ol className="flex flex-col gap-3">
        {rows.map((row, index) => {
          const errors = rowErrors(row);
          const show = (field: string) => isShown(`${row.key}.${field}`);
          const blur = (field: string) => () => onShow(`${row.key}.${field}`);
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
                onPress={() => onChange((rs) => rs.filter((r) => r.key !== row.key))}
                className="sm:mt-7"
              >
                <CloseIcon aria-hidden />
              </Button>
            </li>
          );
        })}
      </ol>
      <div>
        <Button variant="secondary" isDisabled={rows.length >= RFID_SAVE_MAX} onPress={onAdd}>
          {t('rfid.add.addRow')}
        </Button>
      </div>
    </div>
  );
}

function ConfirmStep({ entries }: { entries: ReturnType<typeof buildRfidPayload> }) {
  const t = useT();
  return (
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
  );
}

/** ERR_RFID_ID_EXISTS: the values in use, each with the end customer that has it where known. */
function Conflicts({ conflicts }: { conflicts: RfidConflict[] }) {
  const t = useT();
  return (
    <div className="flex flex-col gap-2">
      <p>{t('rfid.errors.exists')}</p>
      <ul className="flex flex-col gap-1" data-testid="rfid-conflicts">
        {conflicts.map((c) => (
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
