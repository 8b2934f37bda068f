import {
  connectorOperationTypes,
  mayAskFor,
  stationOperationBodySchema,
  type ConnectorOperationType,
  type OperationStatus,
  type StationOperationBody,
} from '../../../contract/ocpp';
import type { ConnectorStatus } from '../../../contract/enums';
import { isApiError, isNetworkError } from '../../api/errors';
import type { StatusTone } from '../../ui/status-badge';
import { failureForCode } from '../../ui/validation';

/** A message id and its values. */
export interface Message {
  id: string;
  values?: Record<string, string | number>;
}

/** Station operations (spec 2 §2, §4, §5; contract/ocpp.ts): who may ask, when, and what it needs. */

/** The operations the caller's role may ask a station for, in the contract's order. */
export const operationsFor = (isAdmin: boolean): ConnectorOperationType[] => connectorOperationTypes.filter((t) => mayAskFor(t, isAdmin));

/** Why no operation can be asked for now, or null: the station (spec 2 §4) or the app's network. */
export type OperationBlock = 'stationOffline' | 'stationInactive' | 'network';

export function operationBlock(status: ConnectorStatus, appOnline: boolean): OperationBlock | null {
  if (status === 'OFFLINE') return 'stationOffline';
  if (status === 'INACTIVE') return 'stationInactive';
  return appOnline ? null : 'network';
}

/** The fields an operation's form asks for. */
export function fieldsOf(type: ConnectorOperationType): { key: boolean; value: 'value' | 'location' | null } {
  if (type === 'CHANGE_CONFIGURATION') return { key: true, value: 'value' };
  if (type === 'GET_CONFIGURATION') return { key: true, value: null };
  if (type === 'GET_DIAGNOSTICS') return { key: false, value: 'location' };
  return { key: false, value: null };
}

/** The contract's own codes that the shared form messages do not know. */
const ownCodes: Record<string, string> = { oneKey: 'ocpp.validation.oneKey', url: 'ocpp.validation.url' };

/**
 * The contract's rules for the body the form would send (spec 2 §5: change configuration needs key
 * and value, get configuration a key), as one message per field.
 */
export function operationIssues(body: StationOperationBody): { key?: Message; value?: Message } {
  const parsed = stationOperationBodySchema.safeParse(body);
  if (parsed.success) return {};
  const out: { key?: Message; value?: Message } = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field !== 'key' && field !== 'value') || out[field]) continue;
    const own = ownCodes[issue.message];
    out[field] = own ? { id: own } : (failureForCode(issue.message) ?? { id: 'validation.invalid' });
  }
  return out;
}

/** How a failed operation reads: a message id of `ocpp.failure.*` and its values. */
export function operationFailure(error: unknown): Message {
  if (isNetworkError(error)) return { id: 'ocpp.failure.network' };
  if (!isApiError(error)) return { id: 'ocpp.failure.unknown' };
  switch (error.errorCodeResponse) {
    case 'STATION_UNAVAILABLE':
      return { id: 'ocpp.failure.unavailable' };
    case 'STATION_NOT_CONNECTED':
      return { id: 'ocpp.failure.notConnected' };
    case 'STATION_NO_ANSWER':
      return { id: 'ocpp.failure.noAnswer' };
    case 'STATION_CALL_FAILED': {
      const code = (error.errorDetail as { ocppErrorCode?: unknown } | undefined)?.ocppErrorCode;
      return { id: 'ocpp.failure.callFailed', values: { code: typeof code === 'string' ? code : '–' } };
    }
    case 'FORBIDDEN':
      return { id: 'ocpp.failure.forbidden' };
    case 'CONNECTOR_NOT_FOUND':
      return { id: 'ocpp.failure.notFound' };
    default:
      return { id: 'ocpp.failure.unknown' };
  }
}

export const operationStatusTone: Record<OperationStatus, StatusTone> = {
  pending: 'info',
  accepted: 'success',
  rejected: 'warning',
  timed_out: 'danger',
  offline: 'danger',
  error: 'danger',
};

/** The message id of an operation type's name (ocpp.types.*); a status change reaching the station is CHANGE_AVAILABILITY. */
export const operationTypeMessageId = (type: string): string =>
  (connectorOperationTypes as readonly string[]).includes(type) || type === 'CHANGE_AVAILABILITY'
    ? `ocpp.types.${type}`
    : 'ocpp.types.unknown';

/** Keys to ask the station for again: those it reported last, as one comma list within the contract's limit. */
export function keysToAskAgain(keys: readonly string[], maxLength = 2000): string {
  let out = '';
  for (const key of keys) {
    const next = out ? `${out},${key}` : key;
    if (next.length > maxLength) break;
    out = next;
  }
  return out;
}

const stationWords = ['Accepted', 'Rejected', 'RebootRequired', 'NotSupported', 'Unlocked', 'UnlockFailed', 'Scheduled'];

/**
 * The station's own word (OCPP 1.6's enumerations) in the user's language, an unknown one as it
 * came; null where the result already says it (Accepted, Rejected).
 */
export function stationWord(t: (id: string) => string, word: string | null): string | null {
  if (word === null || word === 'Accepted' || word === 'Rejected') return null;
  return stationWords.includes(word) ? t(`ocpp.answer.${word}`) : word;
}
