import { MAX_STATIONS_TO_CREATE, MIN_STATIONS_TO_CREATE, type CreateStationsBody } from '../../../contract/stations';
import { isApiError, isNetworkError } from '../../api/errors';

/** The station creation wizard as typed (spec 2 §2, §5). */
export type CreateStationsValues = {
  chargingStationModel: string;
  locationId: string;
  numOfChargingStations: string;
};

/** Keys under stations.create.validation.* (spec messages LBLReqMSG, locReq, csmorezero). */
export type CreateStationsError = 'modelRequired' | 'locationRequired' | 'countMin' | 'countWhole' | 'countMax';
export type CreateStationsErrors = Partial<Record<keyof CreateStationsValues, CreateStationsError>>;

export const emptyCreateStations = (locationId = ''): CreateStationsValues => ({
  chargingStationModel: '',
  locationId,
  numOfChargingStations: '1',
});

/** chargingStationModel and location required; the count a whole number from 1 (and at most 100, the server's cap). */
export function validateCreateStations(values: CreateStationsValues): CreateStationsErrors {
  const errors: CreateStationsErrors = {};
  if (!values.chargingStationModel.trim()) errors.chargingStationModel = 'modelRequired';
  if (!values.locationId.trim()) errors.locationId = 'locationRequired';
  const raw = values.numOfChargingStations.trim();
  const count = Number(raw);
  if (raw === '' || !Number.isFinite(count) || count < MIN_STATIONS_TO_CREATE) errors.numOfChargingStations = 'countMin';
  else if (!Number.isInteger(count)) errors.numOfChargingStations = 'countWhole';
  else if (count > MAX_STATIONS_TO_CREATE) errors.numOfChargingStations = 'countMax';
  return errors;
}

export const isCreateStationsValid = (values: CreateStationsValues) => Object.keys(validateCreateStations(values)).length === 0;

export function buildCreateStationsPayload(values: CreateStationsValues, locationName: string | undefined): CreateStationsBody {
  return {
    locationId: values.locationId.trim(),
    locationName: locationName ?? null,
    numOfChargingStations: Number(values.numOfChargingStations.trim()),
    chargingStationModel: values.chargingStationModel.trim(),
  };
}

/** Spec 2 §8: a failed creation says 'something went wrong'; offline says so; a vanished location is named. */
export type CreateStationsFailure = { kind: 'offline' } | { kind: 'locationNotFound' } | { kind: 'generic' };

export function createStationsFailure(error: unknown): CreateStationsFailure {
  if (isNetworkError(error)) return { kind: 'offline' };
  if (isApiError(error) && error.errorCodeResponse === 'LOCATION_NOT_FOUND') return { kind: 'locationNotFound' };
  return { kind: 'generic' };
}
