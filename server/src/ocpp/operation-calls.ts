import type { ConnectorOperationType, OperationStatus, StationOperationBody } from '../../../contract/ocpp';

/** Each connectorOperationType (spec 2 §7) as its OCPP 1.6 call; `n` is the OCPP connector number. */
export function ocppCallFor(body: StationOperationBody, n: number): { action: string; params: Record<string, unknown> } {
  const type: ConnectorOperationType = body.connectorOperationType;
  switch (type) {
    case 'CHANGE_CONFIGURATION':
      return { action: 'ChangeConfiguration', params: { key: body.key!.trim(), value: body.value! } };
    case 'GET_CONFIGURATION':
      return { action: 'GetConfiguration', params: { key: body.key!.split(',').map((k) => k.trim()) } };
    case 'CONNECTOR_UNLOCK':
      return { action: 'UnlockConnector', params: { connectorId: n } };
    case 'GET_DIAGNOSTICS':
      return { action: 'GetDiagnostics', params: { location: body.value! } };
    case 'HARD_RESET':
      return { action: 'Reset', params: { type: 'Hard' } };
    case 'SOFT_RESET':
      return { action: 'Reset', params: { type: 'Soft' } };
    case 'TRIGGER_STATUS_NOTIFICATION':
      return { action: 'TriggerMessage', params: { requestedMessage: 'StatusNotification', connectorId: n } };
    case 'TRIGGER_METER_VALUE':
      return { action: 'TriggerMessage', params: { requestedMessage: 'MeterValues', connectorId: n } };
    case 'TRIGGER_BOOT_NOTIFICATION':
      return { action: 'TriggerMessage', params: { requestedMessage: 'BootNotification' } };
    case 'TRIGGER_CLEAR_CHARGING_PROFILE':
      return { action: 'ClearChargingProfile', params: { connectorId: n } };
  }
}

/** The station's answers that mean it does what was asked (OCPP 1.6's status enumerations). */
const agreeing = new Set(['Accepted', 'RebootRequired', 'Unlocked', 'Scheduled']);

/** How an answer of the station reads in the operation history. */
export function outcomeOf(answer: unknown): { status: OperationStatus; stationStatus: string | null } {
  const stationStatus = typeof (answer as { status?: unknown })?.status === 'string' ? (answer as { status: string }).status : null;
  // GetConfiguration and GetDiagnostics answer without a status word: an answer is their success.
  if (stationStatus === null) return { status: 'accepted', stationStatus };
  return { status: agreeing.has(stationStatus) ? 'accepted' : 'rejected', stationStatus };
}
