import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { CreateStationsAnswer } from '../../../contract/stations';
import { useT } from '../../i18n/i18n-context';
import { AlertDialog } from '../../ui/alert-dialog';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { Wizard } from '../../ui/wizard';
import { createStationsMutation } from './api/station-queries';
import { locationDropdownQueryOptions, wallboxTypesQueryOptions } from '../locations/api/location-queries';
import {
  buildCreateStationsPayload,
  createStationsFailure,
  emptyCreateStations,
  isCreateStationsValid,
  validateCreateStations,
  type CreateStationsFailure,
  type CreateStationsValues,
} from './create-stations-form';

type Outcome = { kind: 'created'; answer: CreateStationsAnswer } | { kind: 'failed'; failure: CreateStationsFailure } | null;

export interface CreateStationsWizardProps {
  isOpen: boolean;
  onClose: () => void;
  /** Opened from a location page: the location is preselected and locked. */
  fixedLocation?: { locationId: string; locationName: string };
}

/** 'Ladestationen anlegen' (spec 2 §2): model, location and count → confirm → success with the id. */
export function CreateStationsWizard({ isOpen, onClose, fixedLocation }: CreateStationsWizardProps) {
  const t = useT();
  const [initial] = useState(() => emptyCreateStations(fixedLocation?.locationId));
  const [values, setValues] = useState<CreateStationsValues>(initial);
  const [touched, setTouched] = useState<ReadonlySet<keyof CreateStationsValues>>(new Set());
  const [outcome, setOutcome] = useState<Outcome>(null);

  const locations = useQuery({ ...locationDropdownQueryOptions(), enabled: isOpen && !fixedLocation });
  const wallboxTypes = useQuery({ ...wallboxTypesQueryOptions(), enabled: isOpen });
  const locationItems = fixedLocation
    ? [{ id: fixedLocation.locationId, label: `${fixedLocation.locationId}: ${fixedLocation.locationName}` }]
    : (locations.data ?? []).map((l) => ({ id: l.locationId, label: l.locationIdName }));
  const locationName = fixedLocation?.locationName ?? locations.data?.find((l) => l.locationId === values.locationId)?.locationName;
  const locationLabel = locationItems.find((i) => i.id === values.locationId)?.label ?? values.locationId;
  const modelItems = (wallboxTypes.data ?? []).map((w) => ({ id: w.name, label: w.name }));
  const connectorsPerStation = wallboxTypes.data?.find((w) => w.name === values.chargingStationModel)?.connectorsPerStation;

  const errors = validateCreateStations(values);
  const shown = (key: keyof CreateStationsValues) =>
    touched.has(key) && errors[key] ? t(`stations.create.validation.${errors[key]}`) : undefined;
  const set = (key: keyof CreateStationsValues, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setTouched((s) => new Set(s).add(key));
  };

  const reset = () => {
    setValues(initial);
    setTouched(new Set());
  };

  const create = useMutation({
    ...createStationsMutation(),
    onSuccess: (answer) => {
      onClose();
      setOutcome({ kind: 'created', answer });
    },
    onError: (error) => setOutcome({ kind: 'failed', failure: createStationsFailure(error) }),
  });

  const failureText = (failure: CreateStationsFailure) =>
    failure.kind === 'offline'
      ? t('errors.offline')
      : failure.kind === 'locationNotFound'
        ? t('stations.create.locationNotFound', { locationId: values.locationId })
        : t('errors.somethingWrong');

  const noLocations = !fixedLocation && locations.isSuccess && locationItems.length === 0;

  return (
    <>
      <Wizard
        isOpen={isOpen}
        onClose={onClose}
        onReset={reset}
        title={t('stations.create.title')}
        submitLabel={t('ui.common.save')}
        isSubmitting={create.isPending}
        onSubmit={() => create.mutateAsync(buildCreateStationsPayload(values, locationName))}
        size="lg"
        steps={[
          {
            id: 'enter',
            title: t('stations.create.stepEnter'),
            isValid: isCreateStationsValid(values),
            onNext: () => {
              setTouched(new Set(['chargingStationModel', 'locationId', 'numOfChargingStations']));
              return isCreateStationsValid(values);
            },
            content: (
              <div className="grid gap-4 md:grid-cols-2">
                <Select
                  label={t('stations.create.model')}
                  items={modelItems}
                  value={values.chargingStationModel || null}
                  onChange={(v) => set('chargingStationModel', v === null ? '' : String(v))}
                  isRequired
                  description={
                    connectorsPerStation ? t('stations.create.connectorsPerStation', { count: connectorsPerStation }) : undefined
                  }
                  errorMessage={wallboxTypes.isError ? t('stations.create.modelsFailed') : shown('chargingStationModel')}
                  fullWidth
                />
                <Select
                  label={t('stations.create.location')}
                  items={locationItems}
                  value={values.locationId || null}
                  onChange={(v) => set('locationId', v === null ? '' : String(v))}
                  isRequired
                  isDisabled={!!fixedLocation || noLocations}
                  placeholder={noLocations ? t('stations.create.noLoc') : undefined}
                  description={fixedLocation ? t('stations.create.locationFixed') : noLocations ? t('stations.create.noLoc') : undefined}
                  errorMessage={locations.isError ? t('stations.create.locationsFailed') : shown('locationId')}
                  fullWidth
                />
                <TextField
                  label={t('stations.create.count')}
                  type="number"
                  isRequired
                  value={values.numOfChargingStations}
                  onChange={(v) => setValues((vals) => ({ ...vals, numOfChargingStations: v }))}
                  onBlur={() => setTouched((s) => new Set(s).add('numOfChargingStations'))}
                  errorMessage={shown('numOfChargingStations')}
                  fullWidth
                />
              </div>
            ),
          },
          {
            id: 'confirm',
            title: t('stations.create.stepConfirm'),
            isValid: isCreateStationsValid(values),
            content: (
              <div className="flex flex-col gap-3">
                <p className="text-muted">{t('stations.create.confirmHint')}</p>
                <dl className="grid gap-x-6 gap-y-2 sm:grid-cols-[max-content_1fr]">
                  {(
                    [
                      [t('stations.create.model'), values.chargingStationModel],
                      [t('stations.create.location'), locationLabel],
                      [t('stations.create.count'), values.numOfChargingStations.trim()],
                    ] as const
                  ).map(([label, value]) => (
                    <div key={label} className="contents">
                      <dt className="font-medium text-muted">{label}</dt>
                      <dd className="text-fg">{value}</dd>
                    </div>
                  ))}
                </dl>
                {connectorsPerStation !== undefined && (
                  <p className="text-muted">
                    {t('stations.create.confirmConnectors', {
                      stations: Number(values.numOfChargingStations),
                      connectors: Number(values.numOfChargingStations) * connectorsPerStation,
                    })}
                  </p>
                )}
              </div>
            ),
          },
        ]}
      />
      <AlertDialog
        isOpen={outcome?.kind === 'created'}
        onClose={() => setOutcome(null)}
        variant="success"
        title={t('stations.create.successTitle')}
      >
        {outcome?.kind === 'created' && (
          <div className="flex flex-col gap-2">
            <p data-testid="created-stations-id">{t('stations.create.successId', { id: outcome.answer.id })}</p>
            <p>{t('stations.create.successStations', { cpIds: outcome.answer.cpIds.join(', ') })}</p>
            <p>{t('stations.create.successText')}</p>
          </div>
        )}
      </AlertDialog>
      <AlertDialog isOpen={outcome?.kind === 'failed'} onClose={() => setOutcome(null)} variant="error" title={t('errors.title')}>
        {outcome?.kind === 'failed' && <p>{failureText(outcome.failure)}</p>}
      </AlertDialog>
    </>
  );
}
