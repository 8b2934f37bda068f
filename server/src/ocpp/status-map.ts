import type { ConnectorStatus } from '../../../contract/enums';

/**
 * OCPP 1.6 ChargePointStatus onto the dashboard's connector statuses (spec 3 §4's catalogue has
 * more states than the dashboard stores; the OCPP status and its error code are kept beside it in
 * ocpp_connector_states and shown on the detail). A fault or a reservation makes the connector
 * unavailable to others, which the dashboard calls Standby; suspended and finishing sessions still
 * occupy the connector without charging.
 */
export const ocppStatusMap = {
  Available: 'IDLE',
  Preparing: 'OCCUPIED_UNCHARGED',
  Charging: 'OCCUPIED_CHARGING',
  SuspendedEVSE: 'OCCUPIED_UNCHARGED',
  SuspendedEV: 'OCCUPIED_UNCHARGED',
  Finishing: 'OCCUPIED_UNCHARGED',
  Reserved: 'CONNECTED_UNAVAILABLE',
  Unavailable: 'CONNECTED_UNAVAILABLE',
  Faulted: 'CONNECTED_UNAVAILABLE',
} as const satisfies Record<string, ConnectorStatus>;

export type OcppConnectorStatus = keyof typeof ocppStatusMap;

export function dashboardStatus(ocppStatus: string): ConnectorStatus {
  return (ocppStatusMap as Record<string, ConnectorStatus>)[ocppStatus] ?? 'CONNECTED_UNAVAILABLE';
}

/** The same map as one SQL CASE over a column holding the OCPP status (the column name is ours, never input). */
export function dashboardStatusSql(column: string): string {
  const arms = Object.entries(ocppStatusMap).map(([ocpp, ours]) => `when '${ocpp}' then '${ours}'`);
  return `case ${column} ${arms.join(' ')} else 'CONNECTED_UNAVAILABLE' end`;
}
