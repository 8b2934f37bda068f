import { emsModels } from '../../../contract/enums';
import {
  MAX_INFRASTRUCTURE_ROWS,
  MAX_STATIONS_PER_ROW,
  MIN_STATIONS_PER_ROW,
  createLocationBodySchema,
  updateLocationBodySchema,
  type CreateLocationBody,
  type UpdateLocationBody,
} from '../../../contract/locations';
import { dropEmpty } from '../../api/client';
import { isApiError, isNetworkError } from '../../api/errors';
import type { FormRules } from '../../ui/use-form';
import { fromSchema, validate, type Rule, type RuleResult } from '../../ui/validation';

export { MAX_INFRASTRUCTURE_ROWS };
export const EMS_MODELS = emsModels;

/** Step 1 (property info) as typed. */
// A type alias (not an interface) so it fits useForm's string-record constraint.
export type PropertyInfo = {
  locationName: string;
  street: string;
  careOf: string;
  zipCode: string;
  city: string;
  cpoId: string;
};

export interface InfrastructureRow {
  /** Stable React key; not sent. */
  key: number;
  model: string;
  /** As typed. */
  count: string;
}

/** Step 2 (charging infrastructure) as typed. */
export interface Infrastructure {
  rows: InfrastructureRow[];
  emsConnected: boolean;
  emsModel: string;
  emsId: string;
}

export const emptyPropertyInfo = (cpoId = ''): PropertyInfo => ({
  locationName: '',
  street: '',
  careOf: '',
  zipCode: '',
  city: '',
  cpoId,
});

export const emptyInfrastructure = (): Infrastructure => ({ rows: [], emsConnected: false, emsModel: '', emsId: '' });

export type PropertyErrors = Partial<Record<keyof PropertyInfo, RuleResult>>;

// The contract's rules (contract/locations.ts) are the form's: whatever passes here, the server takes.
const create = createLocationBodySchema.shape;
const createAddress = create.locationAddress.shape;
const update = updateLocationBodySchema.shape;
const updateAddress = update.locationAddress.shape;

/** Spec 1 §5 (location): name, street, operator required; city letters/spaces/hyphens; zip digits; c/o optional. */
export const propertyRules: FormRules<PropertyInfo> = {
  locationName: [fromSchema(create.locationName)],
  street: [fromSchema(createAddress.street)],
  careOf: [fromSchema(createAddress.careOf)],
  zipCode: [fromSchema(createAddress.zipCode)],
  city: [fromSchema(createAddress.city)],
  cpoId: [fromSchema(create.cpoId)],
};

export function validatePropertyInfo(info: PropertyInfo): PropertyErrors {
  const out: PropertyErrors = {};
  for (const key of Object.keys(info) as Array<keyof PropertyInfo>) {
    const own = propertyRules[key] as Rule<string>[] | undefined;
    if (own) out[key] = validate(info[key], ...own);
  }
  return out;
}

export const hasErrors = (errors: Record<string, unknown>): boolean => Object.values(errors).some(Boolean);

/** Rows that end up in the payload: a model and a count above 0 (a removed row counts as 0, spec 1 §4). */
export const rowsToSend = (infra: Infrastructure): InfrastructureRow[] =>
  infra.rows.filter((r) => r.model.trim() !== '' && (parseCount(r.count) ?? 0) > 0);

/** Whole number as typed, or null. */
export function parseCount(value: string): number | null {
  const v = value.trim();
  if (!/^\d+$/.test(v)) return null;
  return Number(v);
}

export type RowErrorId = 'required' | 'countRange' | 'duplicateModel';
export interface RowErrors {
  model: RowErrorId | null;
  count: RowErrorId | null;
}

export interface InfrastructureErrors {
  rows: Record<number, RowErrors>;
  emsModel: 'required' | null;
}

/** Spec 1 §5: every visible row needs a model and 1..100 stations; models differ; EMS model when connected. */
export function validateInfrastructure(infra: Infrastructure): InfrastructureErrors {
  const rows = infra.rows;
  const out: InfrastructureErrors = { rows: {}, emsModel: null };
  const seen = new Set<string>();
  for (const row of rows) {
    const model = row.model.trim();
    const count = parseCount(row.count);
    let modelError: RowErrorId | null = null;
    if (!model) modelError = 'required';
    else if (seen.has(model)) modelError = 'duplicateModel';
    if (model) seen.add(model);
    const countError: RowErrorId | null =
      count === null || count < MIN_STATIONS_PER_ROW || count > MAX_STATIONS_PER_ROW ? 'countRange' : null;
    out.rows[row.key] = { model: modelError, count: countError };
  }
  if (isEmsConnected(infra) && !(EMS_MODELS as readonly string[]).includes(infra.emsModel)) out.emsModel = 'required';
  return out;
}

export function isInfrastructureValid(infra: Infrastructure): boolean {
  const errors = validateInfrastructure(infra);
  return !errors.emsModel && Object.values(errors.rows).every((r) => !r.model && !r.count);
}

/** Spec 1 §4: without infrastructure the EMS counts as not connected. */
export const isEmsConnected = (infra: Infrastructure): boolean => infra.emsConnected && infra.rows.length > 0;

export function canAddRow(infra: Infrastructure): boolean {
  return infra.rows.length < MAX_INFRASTRUCTURE_ROWS;
}

/** Spec 1 §3: only rows with a count above 0, empty values removed. */
export function buildCreatePayload(info: PropertyInfo, infra: Infrastructure, cpoName: string | undefined): CreateLocationBody {
  const connected = isEmsConnected(infra);
  const payload = {
    locationName: info.locationName.trim(),
    locationAddress: {
      careOf: info.careOf.trim(),
      city: info.city.trim(),
      street: info.street.trim(),
      zipCode: info.zipCode.trim(),
    },
    cpoId: info.cpoId,
    cpoName: cpoName?.trim(),
    wallBoxesData: rowsToSend(infra).map((r) => ({
      numOfChargingStations: parseCount(r.count) ?? 0,
      chargingStationModel: r.model.trim(),
    })),
    isEmsConnected: connected,
    emsModel: connected ? infra.emsModel : '',
    emsId: connected ? infra.emsId.trim() : '',
  };
  return dropEmpty(payload) as CreateLocationBody;
}

/** Spec 1 §2 / spec 2 §2: admins see the total including removed stations, everyone else without them. */
export function stationCount(counts: { totalNrChargingStation: number; removedNrChargingStation: number }, isAdmin: boolean): number {
  return isAdmin ? counts.totalNrChargingStation : Math.max(0, counts.totalNrChargingStation - counts.removedNrChargingStation);
}

/** The stations' connectors (Ladepunkte), counted the same way as `stationCount`. */
export function chargePointCount(counts: { totalNrChargePoints: number; removedNrChargePoints: number }, isAdmin: boolean): number {
  return isAdmin ? counts.totalNrChargePoints : Math.max(0, counts.totalNrChargePoints - counts.removedNrChargePoints);
}

/** Spec 1 §6: Operator-type users have their operator fixed to the first one in their token. */
export function fixedOperatorId(claims: { customer_type: string; cpo_id: readonly string[] } | null): string | null {
  if (claims?.customer_type !== 'Operator') return null;
  return claims.cpo_id[0] ?? null;
}

/** 'id: name', as the operator select lists them. */
export const operatorLabel = (op: { cpoId: string; cpoName: string }): string => `${op.cpoId}: ${op.cpoName}`;

/** What the wizard says when creation failed (spec 1 §8). */
export type CreateFailure =
  { kind: 'operatorNotFound'; cpoId: string } | { kind: 'message'; text: string } | { kind: 'offline' } | { kind: 'generic' };

/** OPERATOR_NOT_FOUND names the cpoId; other failures show the response's message if there is one. */
export function createFailure(error: unknown, cpoId: string, genericMessage: string): CreateFailure {
  if (isNetworkError(error)) return { kind: 'offline' };
  if (!isApiError(error)) return { kind: 'generic' };
  if (error.errorCodeResponse === 'OPERATOR_NOT_FOUND') return { kind: 'operatorNotFound', cpoId };
  // Validation answers carry field codes, not sentences; those read better as the generic text.
  if (error.status === 400 || !error.errorMessage || error.errorMessage === genericMessage) return { kind: 'generic' };
  return { kind: 'message', text: error.errorMessage };
}

// A type alias (not an interface) so it fits useForm's string-record constraint.
export type EditValues = {
  locationName: string;
  street: string;
  careOf: string;
  zipCode: string;
  city: string;
};

/** Spec 2 §5 (location edit): name, street, zip code and city required; c/o optional. */
export const editRules: FormRules<EditValues> = {
  locationName: [fromSchema(update.locationName)],
  street: [fromSchema(updateAddress.street)],
  careOf: [fromSchema(updateAddress.careOf)],
  zipCode: [fromSchema(updateAddress.zipCode)],
  city: [fromSchema(updateAddress.city)],
};

export function editValuesOf(location: {
  locationName: string;
  locationAddress: { street: string; careOf?: string | null; zipCode: string; city: string };
}): EditValues {
  return {
    locationName: location.locationName,
    street: location.locationAddress.street,
    careOf: location.locationAddress.careOf ?? '',
    zipCode: location.locationAddress.zipCode,
    city: location.locationAddress.city,
  };
}

/** PUT /bff/locations/update-location; the version lets the server refuse an edit of stale data. */
export function buildUpdatePayload(location: { locationId: string; version?: number }, values: EditValues): UpdateLocationBody {
  return {
    locationId: location.locationId,
    locationName: values.locationName.trim(),
    locationAddress: {
      street: values.street.trim(),
      city: values.city.trim(),
      zipCode: values.zipCode.trim(),
      countryCode: 'DE',
      careOf: values.careOf.trim() || undefined,
    },
    version: location.version,
  };
}
