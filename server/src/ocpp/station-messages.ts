import type { Db } from '../db/client';
import type { Presence } from './presence';
import {
  connectorPlace,
  contractForTag,
  insertTransaction,
  nextTransactionId,
  recordBoot,
  recordConnectorStatus,
  recordMeter,
  recordStationStatus,
  stopTransaction,
  type StartedTransaction,
  type StatusReport,
} from './queries';

/**
 * What the central system answers each call of a charge point (OCPP 1.6 §4). The library has
 * checked every call against the official 1.6 schema before it gets here, so the shapes below
 * hold; these are the rules.
 */

type IdTagStatus = 'Accepted' | 'Blocked' | 'Expired' | 'Invalid';

/** The contract's status as the station should read the tag (spec 2 §4: only ACTIVE contracts charge). */
export function idTagStatusOf(contractStatus: string | undefined): IdTagStatus {
  if (contractStatus === 'ACTIVE') return 'Accepted';
  if (contractStatus === 'BLOCKED') return 'Blocked';
  if (contractStatus === 'EXPIRED' || contractStatus === 'UNSIGNED_EXPIRED') return 'Expired';
  return 'Invalid';
}

export const connectorIdOf = (cpId: string, connector: number) => `${cpId}_${connector}`;

interface SampledValue {
  value: string;
  measurand?: string;
  unit?: string;
  context?: string;
}

/** The energy register (Wh) among a MeterValues call's samples, the last one when there are several. */
export function energyRegisterWh(meterValue: { sampledValue: SampledValue[] }[]): number | undefined {
  let wh: number | undefined;
  for (const mv of meterValue) {
    for (const s of mv.sampledValue) {
      // The measurand defaults to the energy register (OCPP 1.6 §7.31).
      if ((s.measurand ?? 'Energy.Active.Import.Register') !== 'Energy.Active.Import.Register') continue;
      const n = Number(s.value);
      if (!Number.isFinite(n)) continue;
      wh = s.unit === 'kWh' ? n * 1000 : n;
    }
  }
  return wh === undefined ? undefined : Math.round(wh);
}

export interface StationEvents {
  /** Something on the station's screens changed (status, heartbeat, boot, a session). */
  changed: (cpId: string) => void;
}

/**
 * A frame's last-seen time and a Heartbeat's time go to `presence` (memory, written in batches); the
 * other calls do their database work here, bounded per socket by central-system.ts.
 */
export function stationMessages(db: Db, opts: { heartbeatSeconds: number; events: StationEvents; presence: Presence }) {
  const seen = (cpId: string) => opts.presence.seen(cpId);
  const changed = opts.events.changed;

  return {
    async BootNotification(
      cpId: string,
      p: { chargePointVendor: string; chargePointModel: string; chargePointSerialNumber?: string; firmwareVersion?: string },
    ) {
      seen(cpId);
      await recordBoot(
        db,
        cpId,
        {
          vendor: p.chargePointVendor,
          model: p.chargePointModel,
          serialNumber: p.chargePointSerialNumber ?? null,
          firmwareVersion: p.firmwareVersion ?? null,
        },
        opts.heartbeatSeconds,
      );
      changed(cpId);
      return { status: 'Accepted', currentTime: new Date().toISOString(), interval: opts.heartbeatSeconds };
    },

    // No statement: the time reaches connectors.last_heartbeat with the next flush, which tells the screens.
    async Heartbeat(cpId: string) {
      const now = new Date();
      opts.presence.heartbeat(cpId, now);
      return { currentTime: now.toISOString() };
    },

    async StatusNotification(
      cpId: string,
      p: { connectorId: number; status: string; errorCode: string; info?: string; vendorErrorCode?: string; timestamp?: string },
    ) {
      seen(cpId);
      const report: StatusReport = {
        status: p.status,
        errorCode: p.errorCode,
        info: p.info ?? null,
        vendorErrorCode: p.vendorErrorCode ?? null,
        at: p.timestamp ? new Date(p.timestamp) : new Date(),
      };
      if (p.connectorId === 0) await recordStationStatus(db, cpId, report);
      else await recordConnectorStatus(db, connectorIdOf(cpId, p.connectorId), report);
      changed(cpId);
      return {};
    },

    async Authorize(cpId: string, p: { idTag: string }) {
      seen(cpId);
      const contract = await contractForTag(db, cpId, p.idTag);
      return { idTagInfo: { status: idTagStatusOf(contract?.contractStatus) } };
    },

    async StartTransaction(cpId: string, p: { connectorId: number; idTag: string; meterStart: number; timestamp: string }) {
      seen(cpId);
      const transactionId = await nextTransactionId(db);
      const connectorId = connectorIdOf(cpId, p.connectorId);
      const [contract, place] = [await contractForTag(db, cpId, p.idTag), await connectorPlace(db, connectorId)];
      const status = idTagStatusOf(contract?.contractStatus);
      // An unknown connector cannot hold a transaction's record; the station still needs an id.
      if (!place) return { transactionId, idTagInfo: { status: 'Invalid' } };
      const started: StartedTransaction = {
        transactionId,
        cpId,
        connectorId,
        idTag: p.idTag,
        meterStartWh: p.meterStart,
        startedAt: new Date(p.timestamp),
      };
      // A known tag becomes a charging request (denied when its contract does not allow charging);
      // an unknown one names nobody, and a connector not placed at a location has no place to book it.
      if (contract && place.locationId) {
        started.request = {
          place: { cpoId: place.cpoId, locationId: place.locationId, parkingLot: place.parkingLot },
          contract,
          status: status === 'Accepted' ? 'charging' : 'denied',
        };
      }
      await insertTransaction(db, started);
      changed(cpId);
      return { transactionId, idTagInfo: { status } };
    },

    async MeterValues(cpId: string, p: { connectorId: number; transactionId?: number; meterValue: { sampledValue: SampledValue[] }[] }) {
      seen(cpId);
      const wh = energyRegisterWh(p.meterValue);
      if (p.transactionId !== undefined && wh !== undefined) await recordMeter(db, cpId, p.transactionId, wh);
      return {};
    },

    async StopTransaction(
      cpId: string,
      p: { transactionId: number; meterStop: number; timestamp: string; reason?: string; idTag?: string },
    ) {
      seen(cpId);
      const stopped = await stopTransaction(db, cpId, {
        transactionId: p.transactionId,
        meterStopWh: p.meterStop,
        at: new Date(p.timestamp),
        reason: p.reason ?? null,
      });
      changed(cpId);
      if (!p.idTag) return {};
      // OCPP 1.6 §6.49: the answer names the tag's status when the station sent one.
      const contract = stopped ? await contractForTag(db, cpId, p.idTag) : undefined;
      return { idTagInfo: { status: idTagStatusOf(contract?.contractStatus) } };
    },

    async DataTransfer(cpId: string) {
      seen(cpId);
      return { status: 'UnknownVendorId' };
    },

    async DiagnosticsStatusNotification(cpId: string) {
      seen(cpId);
      return {};
    },

    async FirmwareStatusNotification(cpId: string) {
      seen(cpId);
      return {};
    },
  };
}

export type StationMessages = ReturnType<typeof stationMessages>;
