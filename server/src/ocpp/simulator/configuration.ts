/**
 * A simulated charge point's configuration: the standard keys of OCPP 1.6 §9 (Core, Local Auth List
 * Management, Smart Charging) with the values the simulator actually runs with: HeartbeatInterval
 * drives its heartbeat, MeterValueSampleInterval its meter values, NumberOfConnectors is its own.
 */

type Kind = 'int' | 'bool' | 'csl' | 'text';

export interface ConfigEntry {
  value: string;
  readonly: boolean;
  kind: Kind;
  /** Changed values take effect after the next reset only. */
  rebootRequired?: boolean;
}

export type Configuration = Map<string, ConfigEntry>;

const rw = (kind: Kind, value: string, rebootRequired = false): ConfigEntry => ({ kind, value, readonly: false, rebootRequired });
const ro = (kind: Kind, value: string): ConfigEntry => ({ kind, value, readonly: true });

const MEASURANDS = 'Energy.Active.Import.Register,Power.Active.Import';

export function standardConfiguration(connectors: number, heartbeatSeconds: number): Configuration {
  return new Map<string, ConfigEntry>([
    // 9.1 Core profile
    ['AllowOfflineTxForUnknownId', rw('bool', 'false')],
    ['AuthorizationCacheEnabled', rw('bool', 'false')],
    ['AuthorizeRemoteTxRequests', rw('bool', 'true')],
    ['ClockAlignedDataInterval', rw('int', '0')],
    ['ConnectionTimeOut', rw('int', '60')],
    ['ConnectorPhaseRotation', rw('csl', Array.from({ length: connectors + 1 }, (_, i) => `${i}.RST`).join(','))],
    ['GetConfigurationMaxKeys', ro('int', '50')],
    ['HeartbeatInterval', rw('int', String(heartbeatSeconds))],
    ['LocalAuthorizeOffline', rw('bool', 'false')],
    ['LocalPreAuthorize', rw('bool', 'false')],
    ['MeterValuesAlignedData', rw('csl', 'Energy.Active.Import.Register')],
    ['MeterValuesSampledData', rw('csl', MEASURANDS)],
    ['MeterValueSampleInterval', rw('int', '30')],
    ['NumberOfConnectors', ro('int', String(connectors))],
    ['ResetRetries', rw('int', '3')],
    ['StopTransactionOnEVSideDisconnect', rw('bool', 'true')],
    ['StopTransactionOnInvalidId', rw('bool', 'true')],
    ['StopTxnAlignedData', rw('csl', '')],
    ['StopTxnSampledData', rw('csl', 'Energy.Active.Import.Register')],
    ['SupportedFeatureProfiles', ro('csl', 'Core,LocalAuthListManagement,RemoteTrigger,SmartCharging')],
    ['TransactionMessageAttempts', rw('int', '3')],
    ['TransactionMessageRetryInterval', rw('int', '60')],
    ['UnlockConnectorOnEVSideDisconnect', rw('bool', 'true')],
    ['WebSocketPingInterval', rw('int', '30', true)],
    // 9.2 Local Auth List Management profile
    ['LocalAuthListEnabled', rw('bool', 'false')],
    ['LocalAuthListMaxLength', ro('int', '0')],
    ['SendLocalListMaxLength', ro('int', '0')],
    // 9.4 Smart Charging profile
    ['ChargeProfileMaxStackLevel', ro('int', '0')],
    ['ChargingScheduleAllowedChargingRateUnit', ro('csl', 'Current,Power')],
    ['ChargingScheduleMaxPeriods', ro('int', '0')],
    ['MaxChargingProfilesInstalled', ro('int', '0')],
  ]);
}

const valid: Record<Kind, (v: string) => boolean> = {
  int: (v) => /^\d{1,9}$/.test(v),
  bool: (v) => v === 'true' || v === 'false',
  csl: (v) => v.length <= 500,
  text: (v) => v.length <= 500,
};

export type ChangeStatus = 'Accepted' | 'Rejected' | 'RebootRequired' | 'NotSupported';

/** ChangeConfiguration as a 1.6 station answers it: unknown keys NotSupported, read-only or malformed values Rejected. */
export function changeConfiguration(config: Configuration, key: string, value: string): ChangeStatus {
  const entry = config.get(key);
  if (!entry) return 'NotSupported';
  if (entry.readonly || !valid[entry.kind](value)) return 'Rejected';
  if (entry.kind === 'int' && key === 'HeartbeatInterval' && Number(value) === 0) return 'Rejected';
  config.set(key, { ...entry, value });
  return entry.rebootRequired ? 'RebootRequired' : 'Accepted';
}

/** GetConfiguration: every key when none is asked for, else the known ones and the unknown ones apart. */
export function getConfiguration(config: Configuration, keys: string[] | undefined) {
  const asked = keys && keys.length > 0 ? keys : [...config.keys()];
  const configurationKey = asked
    .filter((k) => config.has(k))
    .map((key) => ({ key, readonly: config.get(key)!.readonly, value: config.get(key)!.value }));
  const unknownKey = asked.filter((k) => !config.has(k));
  return unknownKey.length > 0 ? { configurationKey, unknownKey } : { configurationKey };
}

export const configNumber = (config: Configuration, key: string, fallback: number) => {
  const n = Number(config.get(key)?.value);
  return Number.isFinite(n) && n > 0 ? n : fallback;
};
