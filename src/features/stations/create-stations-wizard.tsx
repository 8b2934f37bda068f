import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type Dispatch, type SetStateAction } from 'react';
import type { CreateStationsAnswer } from '../../../contract/stations';
import { useT } from '../../i18n/i18n-context';
import { CreateWizard } from '../../layout/create-wizard';
import { Select } from '../../ui/select';
import { TextField } from '../../ui/text-field';
import { createStationsMutation } from './api/station-queries';
import { locationDropdownQueryOptions, wallboxTypesQueryOptions } from '../locations/api/location-queries';
import {
  buildCreateStationsPayload,
  createStationsFailure,
  emptyCreateStations,
  isCreateStationsValid,
  validateCreateStations,
  type CreateStationsValues,
} from './create-stations-form';

export interface CreateStationsWizardProps {
  isOpen: boolean;
  onClose: () => void;
  /** Opened from a location page: the location is preselected and locked. */
  fixedLocation?: { locationId: string; locationName: string };
}

type Item = { id: string; label: string };

/** 'Ladestationen anlegen' (spec 2 §2): model, location and count → confirm → success with the id. */
export function CreateStationsWizard({ isOpen, onClose, fixedLocation }: CreateStationsWizardProps) {
  const t = useT();
  const [initial] = useState(() => emptyCreateStations(fixedLocation?.locationId));
  const [values, setValues] = useState<CreateStationsValues>(initial);
  const [touched, setTouched] = useState<ReadonlySet<keyof CreateStationsValues>>(new Set());

  const locations = useQuery({ ...locationDropdownQueryOptions(), enabled: isOpen && !fixedLocation });
  const wallboxTypes = useQuery({ ...wallboxTypesQueryOptions(), enabled: isOpen });
  const locationItems: Item[] = fixedLocation
    ? [{ id: fixedLocation.locationId, label: `${fixedLocation.locationId}: ${fixedLocation.locationName}` }]
    : (locations.data ?? []).map((l) => ({ id: l.locationId, label: l.locationIdName }));
  const locationName = fixedLocation?.locationName ?? locations.data?.find((l) => l.locationId === values.locationId)?.locationName;
  const connectorsPerStation = wallboxTypes.data?.find((w) => w.name === values.chargingStationModel)?.connectorsPerStation;

  const reset = () => {
    setValues(initial);
    setTouched(new Set());
  };

  const create = useMutation(createStationsMutation());

  return (
    <CreateWizard<CreateStationsAnswer>
      isOpen={isOpen}
      onClose={onClose}
      onReset={reset}
      title={t('stations.create.title')}
      submitLabel={t('ui.common.save')}
      send={() => create.mutateAsync(buildCreateStationsPayload(values, locationName))}
      isSending={create.isPending}
      successTitle={t('stations.create.successTitle')}
      successBody={(answer) => (
        <div className="flex flex-col gap-2">
          <p data-testid="created-stations-id">{t('stations.create.successId', { id: answer.id })}</p>
          <p>{t('stations.create.successStations', { cpIds: answer.cpIds.join(', ') })}</p>
          <p>{t('stations.create.successText')}</p>
        </div>
      )}
      failure={(error) =>
        createStationsFailure(error).kind === 'locationNotFound'
          ? t('stations.create.locationNotFound', { locationId: values.locationId })
          : undefined
      }
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
            <EnterStep
              values={values}
              setValues={setValues}
              touched={touched}
              setTouched={setTouched}
              models={{ items: (wallboxTypes.data ?? []).map((w) => ({ id: w.name, label: w.name })), failed: wallboxTypes.isError }}
              locations={{
                items: locationItems,
                failed: locations.isError,
                none: !fixedLocation && locations.isSuccess && locationItems.length === 0,
                fixed: !!fixedLocation,
              }}
              connectorsPerStation={connectorsPerStation}
            />
          ),
        },
        {
          id: 'confirm',
          title: t('stations.create.stepConfirm'),
          isValid: isCreateStationsValid(values),
          content: (
            <ConfirmStep
              values={values}
              locationLabel={locationName ? `${locationName} (${values.locationId})` : values.locationId}
              connectorsPerStation={connectorsPerStation}
            />
          ),
        },
      ]}
    />
  );
}

interface EnterStepProps {
  values: CreateStationsValues;
  setValues: Dispatch<SetStateAction<CreateStationsValues>>;
  touched: ReadonlySet<keyof CreateStationsValues>;
  setTouched: Dispatch<SetStateAction<ReadonlySet<keyof CreateStationsValues>>>;
  models: { items: Item[]; failed: boolean };
  locations: { items: Item[]; failed: boolean; none: boolean; fixed: boolean };
  connectorsPerStation: number | undefined;
}

function EnterStep({ values, setValues, touched, setTouched, models, locations, connectorsPerStation }: EnterStepProps) {
  const t = useT();
  const errors = validateCreateStations(values);
  const shown = (key: keyof CreateStationsValues) =>
    touched.has(key) && errors[key] ? t(`stations.create.validation.${errors[key]}`) : undefined;
  const set = (key: keyof CreateStationsValues, value: string) => {
    setValues((v) => ({ ...v, [key]: value }));
    setTouched((s) => new Set(s).add(key));
  };
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <Select
        label={t('stations.create.model')}
        items={models.items}
        value={values.chargingStationModel || null}
        onChange={(v) => set('chargingStationModel', v === null ? '' : String(v))}
        isRequired
        description={connectorsPerStation ? t('stations.create.connectorsPerStation', { count: connectorsPerStation }) : undefined}
        errorMessage={models.failed ? t('stations.create.modelsFailed') : shown('chargingStationModel')}
        fullWidth
      />
      <Select
        label={t('stations.create.location')}
        items={locations.items}
        value={values.locationId || null}
        onChange={(v) => set('locationId', v === null ? '' : String(v))}
        isRequired
        isDisabled={locations.fixed || locations.none}
        placeholder={locations.none ? t('stations.create.noLoc') : undefined}
        description={locations.fixed ? t('stations.create.locationFixed') : locations.none ? t('stations.create.noLoc') : undefined}
        errorMessage={locations.failed ? t('stations.create.locationsFailed') : shown('locationId')}
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
  );
}

function ConfirmStep({
  values,
  locationLabel,
  connectorsPerStation,
}: {
  values: CreateStationsValues;
  locationLabel: string;
  connectorsPerStation: number | undefined;
}) {
  const t = useT();
  return (
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
  );
}
