import { useMutation, useQuery } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import type { CreateLocationAnswer } from '../../../../contract/locations';
import { GENERIC_ERROR_MESSAGE } from '../../../api/errors';
import { useT } from '../../../i18n/i18n-context';
import { Button } from '../../../ui/button';
import { RadioGroup } from '../../../ui/radio-group';
import { Select } from '../../../ui/select';
import { TextField } from '../../../ui/text-field';
import { bindField, useForm } from '../../../ui/use-form';
import { AddressFields } from '../../../ui/address-fields';
import { CreateWizard } from '../../../layout/create-wizard';
import { useSession } from '../../../auth/session-context';
import { createLocationMutation, wallboxTypesQueryOptions } from '../api/location-queries';
// Every operator select reads the operators area's one factory: a new operator shows here once created.
import { ALL_OPERATORS, operatorListQueryOptions } from '../../operators/api/operator-queries';
import {
  EMS_MODELS,
  MAX_INFRASTRUCTURE_ROWS,
  buildCreatePayload,
  canAddRow,
  createFailure,
  emptyInfrastructure,
  emptyPropertyInfo,
  fixedOperatorId,
  isEmsConnected,
  isInfrastructureValid,
  operatorLabel,
  propertyRules,
  rowsToSend,
  validateInfrastructure,
  type Infrastructure,
  type PropertyInfo,
} from '../location-form';

/** 'Standort hinzufügen': property info → charging infrastructure → confirm and save (spec 1 §2). */
export function LocationWizard({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const t = useT();
  const { claims } = useSession();
  const fixedCpoId = fixedOperatorId(claims);
  const [initial] = useState(() => emptyPropertyInfo(fixedCpoId ?? ''));
  const form = useForm<PropertyInfo>(initial, propertyRules);
  const [infra, setInfra] = useState<Infrastructure>(emptyInfrastructure);

  const operators = useQuery({ ...operatorListQueryOptions(ALL_OPERATORS), select: (page) => page.response });
  const wallboxTypes = useQuery({ ...wallboxTypesQueryOptions(), enabled: isOpen });
  const operatorItems = (operators.data ?? []).map((op) => ({ id: op.cpoId, label: operatorLabel(op) }));
  if (fixedCpoId && !operatorItems.some((i) => i.id === fixedCpoId)) operatorItems.unshift({ id: fixedCpoId, label: fixedCpoId });
  const cpoName = operators.data?.find((op) => op.cpoId === form.values.cpoId)?.cpoName;

  const reset = () => {
    form.reset();
    setInfra(emptyInfrastructure());
  };

  const create = useMutation(createLocationMutation());

  const failure = (error: unknown) => {
    const found = createFailure(error, form.values.cpoId, GENERIC_ERROR_MESSAGE);
    if (found.kind === 'operatorNotFound') return t('locations.wizard.operatorNotFound', { cpoId: found.cpoId });
    return found.kind === 'message' ? found.text : undefined;
  };

  return (
    <CreateWizard<CreateLocationAnswer>
      isOpen={isOpen}
      onClose={onClose}
      onReset={reset}
      title={t('locations.wizard.title')}
      submitLabel={t('ui.common.save')}
      send={() => create.mutateAsync(buildCreatePayload(form.values, infra, cpoName))}
      isSending={create.isPending}
      successTitle={t('locations.wizard.successTitle')}
      successBody={(answer) => (
        <div className="flex flex-col gap-2">
          <p>{t('locations.wizard.successText')}</p>
          <p data-testid="created-location-id">{t('locations.wizard.successId', { id: answer.locationId })}</p>
        </div>
      )}
      failure={failure}
      steps={[
        {
          id: 'property',
          title: t('locations.wizard.stepProperty'),
          isValid: form.isValid,
          onNext: form.trySubmit,
          content: (
            <div className="grid gap-4 md:grid-cols-2">
              <TextField
                label={t('locations.fields.locationName')}
                isRequired
                fullWidth
                autoFocus
                {...bindField(t, form.field('locationName'))}
              />
              <Select
                label={t('locations.fields.operator')}
                items={operatorItems}
                value={form.values.cpoId || null}
                onChange={(v) => form.setValues((vals) => ({ ...vals, cpoId: v === null ? '' : String(v) }))}
                isRequired
                isDisabled={fixedCpoId !== null}
                description={fixedCpoId !== null ? t('locations.wizard.operatorFixed') : undefined}
                errorMessage={operators.isError ? t('locations.wizard.operatorsFailed') : undefined}
                fullWidth
              />
              <AddressFields field={(key) => bindField(t, form.field(key))} labels="locations.fields" />
            </div>
          ),
        },
        {
          id: 'infrastructure',
          title: t('locations.wizard.stepInfrastructure'),
          isValid: isInfrastructureValid(infra),
          content: <InfrastructureStep infra={infra} onChange={setInfra} models={(wallboxTypes.data ?? []).map((w) => w.name)} />,
        },
        {
          id: 'confirm',
          title: t('locations.wizard.stepConfirm'),
          isValid: form.isValid && isInfrastructureValid(infra),
          content: (
            <Summary info={form.values} operator={cpoName ? `${cpoName} (${form.values.cpoId})` : form.values.cpoId} infra={infra} />
          ),
        },
      ]}
    />
  );
}

function InfrastructureStep({
  infra,
  onChange,
  models,
}: {
  infra: Infrastructure;
  onChange: (next: Infrastructure) => void;
  models: string[];
}) {
  const t = useT();
  const nextKey = useRef(infra.rows.reduce((max, r) => Math.max(max, r.key + 1), 0));
  const [touched, setTouched] = useState<ReadonlySet<number>>(new Set());
  const errors = validateInfrastructure(infra);
  const modelItems = models.map((m) => ({ id: m, label: m }));

  const updateRow = (key: number, patch: { model?: string; count?: string }) =>
    onChange({ ...infra, rows: infra.rows.map((r) => (r.key === key ? { ...r, ...patch } : r)) });
  const addRow = () => {
    const key = nextKey.current++;
    onChange({ ...infra, rows: [...infra.rows, { key, model: '', count: '1' }] });
  };
  // Spec 1 §4: a removed row counts as 0 stations; it is simply not sent.
  const removeRow = (key: number) => onChange({ ...infra, rows: infra.rows.filter((r) => r.key !== key) });
  const rowError = (id: string | null) =>
    id === 'countRange'
      ? t('locations.wizard.countRange')
      : id === 'duplicateModel'
        ? t('locations.wizard.duplicateModel')
        : id
          ? t('validation.required')
          : undefined;

  return (
    <div className="flex flex-col gap-4">
      <p className="text-muted">{t('locations.wizard.infrastructureHint', { max: MAX_INFRASTRUCTURE_ROWS })}</p>
      {infra.rows.length > 0 && (
        <ul className="flex flex-col gap-3" aria-label={t('locations.wizard.rowsLabel')}>
          {infra.rows.map((row, index) => {
            const e = errors.rows[row.key] ?? { model: null, count: null };
            const show = touched.has(row.key) || row.model !== '';
            return (
              <li key={row.key} className="flex flex-wrap items-start gap-3 rounded-md border border-border p-3">
                <Select
                  label={t('locations.fields.stationModel', { n: index + 1 })}
                  items={modelItems}
                  value={row.model || null}
                  onChange={(v) => {
                    setTouched((s) => new Set(s).add(row.key));
                    updateRow(row.key, { model: v === null ? '' : String(v) });
                  }}
                  isRequired
                  errorMessage={show ? rowError(e.model) : undefined}
                  className="min-w-[220px] flex-1"
                />
                <TextField
                  label={t('locations.fields.stationCount', { n: index + 1 })}
                  type="number"
                  isRequired
                  value={row.count}
                  onChange={(v) => updateRow(row.key, { count: v })}
                  onBlur={() => setTouched((s) => new Set(s).add(row.key))}
                  errorMessage={rowError(e.count)}
                  className="w-[160px]"
                />
                <Button variant="ghost" className="mt-6" onPress={() => removeRow(row.key)}>
                  {t('locations.wizard.removeRow', { n: index + 1 })}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <div>
        <Button variant="secondary" onPress={addRow} isDisabled={!canAddRow(infra)}>
          {t('locations.wizard.addRow')}
        </Button>
      </div>
      {infra.rows.length > 0 && (
        <div className="flex flex-wrap items-start gap-4">
          <RadioGroup
            label={t('locations.fields.emsConnected')}
            orientation="horizontal"
            value={infra.emsConnected ? 'yes' : 'no'}
            onChange={(v) => onChange({ ...infra, emsConnected: v === 'yes' })}
            items={[
              { id: 'yes', label: t('locations.yes') },
              { id: 'no', label: t('locations.no') },
            ]}
          />
          {infra.emsConnected && (
            <>
              <Select
                label={t('locations.fields.emsModel')}
                items={EMS_MODELS.map((m) => ({ id: m, label: m }))}
                value={infra.emsModel || null}
                onChange={(v) => onChange({ ...infra, emsModel: v === null ? '' : String(v) })}
                isRequired
                errorMessage={errors.emsModel ? t('validation.required') : undefined}
              />
              <TextField label={t('locations.fields.emsId')} value={infra.emsId} onChange={(v) => onChange({ ...infra, emsId: v })} />
            </>
          )}
        </div>
      )}
    </div>
  );
}

function Summary({ info, operator, infra }: { info: PropertyInfo; operator: string; infra: Infrastructure }) {
  const t = useT();
  const rows = rowsToSend(infra);
  const connected = isEmsConnected(infra);
  const entries: Array<[string, string]> = [
    [t('locations.fields.locationName'), info.locationName],
    [t('locations.fields.operator'), operator],
    [t('locations.fields.street'), info.street],
    [t('locations.fields.careOf'), info.careOf || '–'],
    [t('locations.fields.zipCode'), info.zipCode],
    [t('locations.fields.city'), info.city],
    [
      t('locations.wizard.summaryStations'),
      rows.length === 0
        ? t('locations.wizard.noInfrastructure')
        : rows.map((r) => t('locations.wizard.summaryRow', { count: Number(r.count), model: r.model })).join(', '),
    ],
    [t('locations.fields.emsConnected'), connected ? t('locations.yes') : t('locations.no')],
  ];
  if (connected) {
    entries.push([t('locations.fields.emsModel'), infra.emsModel]);
    if (infra.emsId.trim()) entries.push([t('locations.fields.emsId'), infra.emsId.trim()]);
  }
  return (
    <div className="flex flex-col gap-3">
      <p className="text-muted">{t('locations.wizard.confirmHint')}</p>
      <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
        {entries.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="font-medium text-muted">{label}</dt>
            <dd className="text-fg">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
