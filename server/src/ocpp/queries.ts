import { and, eq, isNull, sql } from 'drizzle-orm';
import { centsToNumeric, requestCostCents } from '../bills/compute';
import { tariffBlocks } from '../bills/run';
import { tariffHistories } from '../bills/run-queries';
import type { Db } from '../db/client';
import { chargingRequests } from '../db/schema/cockpit';
import { contracts } from '../db/schema/contracts';
import { ocppConnectorStates, ocppStations, ocppTransactions } from '../db/schema/ocpp';
import { rfidTags } from '../db/schema/rfid';
import { connectors } from '../db/schema/stations';
import { dashboardStatus, dashboardStatusSql } from './status-map';

const rowsOf = <T>(result: unknown): T[] => (result as { rows: T[] }).rows;

/** The station's stored password hash; undefined when the station is unknown. */
export async function stationPasswordHash(db: Db, cpId: string): Promise<string | null | undefined> {
  const [row] = await db.select({ hash: ocppStations.passwordHash }).from(ocppStations).where(eq(ocppStations.cpId, cpId));
  return row ? row.hash : undefined;
}

export async function setStationPasswordHash(db: Db, cpId: string, hash: string): Promise<void> {
  await db
    .insert(ocppStations)
    .values({ cpId, passwordHash: hash, passwordSetAt: new Date() })
    .onConflictDoUpdate({ target: ocppStations.cpId, set: { passwordHash: hash, passwordSetAt: new Date() } });
}

/** The same password under a new hash, only while the stored one is still `previous` (a rotation meanwhile wins). */
export async function replaceStationPasswordHash(db: Db, cpId: string, previous: string, hash: string): Promise<void> {
  await db
    .update(ocppStations)
    .set({ passwordHash: hash })
    .where(and(eq(ocppStations.cpId, cpId), eq(ocppStations.passwordHash, previous)));
}

/** What one instance learnt of its stations since its last flush (presence.ts). */
export interface PresenceBatch {
  instanceId: string;
  /** The last frame of each station, and its last Heartbeat if it sent one. */
  stations: { cpId: string; seenAt: Date | null; heartbeatAt: Date | null }[];
  /** The lease runs this much beyond the station's heartbeat interval (two flush periods, so a renewal is never late). */
  leaseExtraSeconds: number;
}

/**
 * One statement for a whole flush: last-seen and heartbeat times of the stations that talked, the
 * presence lease of every station this instance holds (renewed once half an interval of it has
 * gone, or shortened when a boot gave a shorter interval), and a station the liveness sweep had made OFFLINE gets back the statuses its connectors
 * last reported (connectors it never reported on stay OFFLINE until it does). Returns the stations
 * whose screens change (a heartbeat time, a status back).
 */
export async function writePresence(db: Db, batch: PresenceBatch): Promise<string[]> {
  const v = JSON.stringify(
    batch.stations.map((s) => ({
      cp_id: s.cpId,
      seen_at: s.seenAt?.toISOString() ?? null,
      heartbeat_at: s.heartbeatAt?.toISOString() ?? null,
    })),
  );
  const extra = batch.leaseExtraSeconds;
  const rows = rowsOf<{ cp_id: string }>(
    await db.execute(sql`
      with v as (
        select * from jsonb_to_recordset(${v}::jsonb) as v(cp_id text, seen_at timestamptz, heartbeat_at timestamptz)
      ), old as (
        select s.cp_id, s.offline from ocpp_stations s join v on v.cp_id = s.cp_id
      ), u as (
        select s.cp_id, v.seen_at,
          s.connected_instance = ${batch.instanceId}
            and (s.connected_until is null
              or s.connected_until < now() + make_interval(secs => s.heartbeat_interval_seconds * 0.5 + ${extra}::float8)
              -- a boot gave a shorter interval than the lease was taken for
              or s.connected_until > now() + make_interval(secs => s.heartbeat_interval_seconds + ${extra}::float8)) as renew
        from ocpp_stations s left join v on v.cp_id = s.cp_id
        where v.cp_id is not null or s.connected_instance = ${batch.instanceId}
      ), stations as (
        update ocpp_stations s set
          last_seen_at = case when u.seen_at is null then s.last_seen_at else greatest(coalesce(s.last_seen_at, u.seen_at), u.seen_at) end,
          offline = s.offline and u.seen_at is null,
          connected_until = case when u.renew then now() + make_interval(secs => s.heartbeat_interval_seconds + ${extra}::float8) else s.connected_until end
        from u
        where s.cp_id = u.cp_id and (u.seen_at is not null or u.renew)
        returning 1
      ), moved as (
        update connectors c set
          last_heartbeat = coalesce(x.heartbeat_at, c.last_heartbeat),
          status = case when x.revive then ${sql.raw(dashboardStatusSql('x.ocpp_status'))} else c.status end,
          version = case when x.revive then c.version + 1 else c.version end,
          online_since = case when x.revive then now() else c.online_since end
        from (
          select c2.connector_id, v.heartbeat_at, st.ocpp_status,
            coalesce(o.offline and v.seen_at is not null and c2.status = 'OFFLINE' and not c2.removed and st.connector_id is not null, false) as revive
          from connectors c2
          join v on v.cp_id = c2.cp_id
          left join old o on o.cp_id = c2.cp_id
          left join ocpp_connector_states st on st.connector_id = c2.connector_id
        ) x
        where c.connector_id = x.connector_id and (x.heartbeat_at is not null or x.revive)
        returning c.cp_id
      )
      select distinct cp_id from moved`),
  );
  return rows.map((r) => r.cp_id);
}

export interface BootData {
  vendor: string;
  model: string;
  serialNumber: string | null;
  firmwareVersion: string | null;
}

export async function recordBoot(db: Db, cpId: string, boot: BootData, intervalSeconds: number): Promise<void> {
  await db
    .update(ocppStations)
    .set({ ...boot, bootedAt: new Date(), heartbeatIntervalSeconds: intervalSeconds })
    .where(eq(ocppStations.cpId, cpId));
}

export interface StatusReport {
  status: string;
  errorCode: string;
  info: string | null;
  vendorErrorCode: string | null;
  at: Date;
}

export async function recordStationStatus(db: Db, cpId: string, report: StatusReport): Promise<void> {
  await db
    .update(ocppStations)
    .set({ stationStatus: report.status, stationErrorCode: report.errorCode, stationInfo: report.info, stationStatusAt: report.at })
    .where(eq(ocppStations.cpId, cpId));
}

/** A connector's OCPP status, and its dashboard status moved on (with its version) when it changed. False: no such connector. */
export async function recordConnectorStatus(db: Db, connectorId: string, report: StatusReport): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [connector] = await tx
      .select({ status: connectors.status, removed: connectors.removed })
      .from(connectors)
      .where(eq(connectors.connectorId, connectorId))
      .for('update');
    if (!connector) return false;
    const state = {
      ocppStatus: report.status,
      errorCode: report.errorCode,
      info: report.info,
      vendorErrorCode: report.vendorErrorCode,
      reportedAt: report.at,
    };
    await tx
      .insert(ocppConnectorStates)
      .values({ connectorId, ...state })
      .onConflictDoUpdate({ target: ocppConnectorStates.connectorId, set: state });
    const next = dashboardStatus(report.status);
    if (connector.removed || connector.status === next) return true;
    const wasAway = connector.status === 'OFFLINE' || connector.status === 'INACTIVE';
    await tx
      .update(connectors)
      .set({ status: next, version: sql`${connectors.version} + 1`, ...(wasAway ? { onlineSince: new Date() } : {}) })
      .where(eq(connectors.connectorId, connectorId));
    return true;
  });
}

export interface TagContract {
  contractKey: string;
  contractStatus: string;
  endCustomerId: string;
  customerFullName: string;
  rfidSerialId: string;
}

/** The contract holding this RFID tag among the contracts of the station's operator (its scope). */
export async function contractForTag(db: Db, cpId: string, idTag: string): Promise<TagContract | undefined> {
  const [row] = await db
    .select({
      contractKey: contracts.contractKey,
      contractStatus: contracts.contractStatus,
      endCustomerId: contracts.endCustomerId,
      customerFullName: sql<string>`${contracts.firstName} || ' ' || ${contracts.lastName}`,
      rfidSerialId: rfidTags.serialId,
    })
    .from(rfidTags)
    .innerJoin(contracts, eq(contracts.contractKey, rfidTags.contractKey))
    .where(
      and(
        eq(rfidTags.rfidTag, idTag),
        sql`${contracts.cpoId} in (select cpo_id from connectors where cp_id = ${cpId} and removed = false)`,
      ),
    )
    .limit(1);
  return row;
}

export async function connectorPlace(db: Db, connectorId: string) {
  const [row] = await db
    .select({ cpoId: connectors.cpoId, locationId: connectors.locationId, parkingLot: connectors.parkingLot })
    .from(connectors)
    .where(eq(connectors.connectorId, connectorId));
  return row;
}

/** A new OCPP transaction id from the database's sequence: never given out twice, whichever instance asks. */
export async function nextTransactionId(db: Db): Promise<number> {
  const [row] = rowsOf<{ id: number }>(await db.execute(sql`select nextval('ocpp_transaction_id_seq')::int as id`));
  return row.id;
}

export const chargingRequestIdOf = (transactionId: number) => `OCPP${transactionId}`;

export interface StartedTransaction {
  transactionId: number;
  cpId: string;
  connectorId: string;
  idTag: string;
  meterStartWh: number;
  startedAt: Date;
  /** Present when the transaction becomes a charging request (a known tag at a placed connector). */
  request?: {
    place: { cpoId: string; locationId: string; parkingLot: string | null };
    contract: TagContract;
    status: 'charging' | 'denied';
  };
}

export async function insertTransaction(db: Db, t: StartedTransaction): Promise<void> {
  await db.transaction(async (tx) => {
    const requestId = t.request ? chargingRequestIdOf(t.transactionId) : null;
    if (t.request) {
      const { place, contract, status } = t.request;
      await tx.insert(chargingRequests).values({
        transactionId: chargingRequestIdOf(t.transactionId),
        contractKey: contract.contractKey,
        endCustomerId: contract.endCustomerId,
        customerFullName: contract.customerFullName,
        cpoId: place.cpoId,
        locationId: place.locationId,
        connectorId: t.connectorId,
        parkingLot: place.parkingLot,
        authType: 'RFID',
        rfidTag: t.idTag,
        rfidSerialId: contract.rfidSerialId,
        status,
        startDate: t.startedAt,
        endDate: status === 'denied' ? t.startedAt : null,
        lastUpdateTimestamp: new Date(),
      });
    }
    await tx.insert(ocppTransactions).values({
      transactionId: t.transactionId,
      cpId: t.cpId,
      connectorId: t.connectorId,
      idTag: t.idTag,
      chargingRequestId: requestId,
      meterStartWh: t.meterStartWh,
      meterLastWh: t.meterStartWh,
      startedAt: t.startedAt,
      stoppedAt: t.request?.status === 'denied' ? t.startedAt : null,
    });
  });
}

/**
 * Energy (kWh, from the meter) and cost of a running or ending transaction's charging request; the
 * roll-ups follow through their triggers. The cost is the bills' (`requestCostCents`): the
 * contract's tariff in force on the request's Berlin start day, from its tariff history as the bill
 * run reads it, so a tariff change taking effect while a session runs, or after it, never reprices
 * it; no stored cost is ever recomputed from a later tariff.
 */
async function updateRequestFigures(db: Db, transactionId: number, meterWh: number, end?: { at: Date }): Promise<void> {
  const [request] = rowsOf<{ id: string; contract_key: string | null; day: string; wh: string }>(
    await db.execute(sql`
      select r.transaction_id as id, r.contract_key, ((r.start_date at time zone 'Europe/Berlin')::date)::text as day,
        greatest(${meterWh}::bigint - t.meter_start_wh, 0)::text as wh
      from ocpp_transactions t join charging_requests r on r.transaction_id = t.charging_request_id
      where t.transaction_id = ${transactionId} and r.status = 'charging'`),
  );
  if (!request) return;
  const wh = BigInt(request.wh);
  const energyKwh = `${wh / 1000n}.${String(wh % 1000n).padStart(3, '0')}`;
  const history = request.contract_key ? (await tariffHistories(db, [request.contract_key])).get(request.contract_key) : undefined;
  const cost = history ? requestCostCents(tariffBlocks(history, request.day, request.day), request.day, energyKwh) : 0n;
  await db
    .update(chargingRequests)
    .set({
      energyKwh,
      cost: centsToNumeric(cost),
      lastUpdateTimestamp: sql`now()`,
      ...(end ? { status: 'finished' as const, endDate: end.at } : {}),
    })
    .where(and(eq(chargingRequests.transactionId, request.id), eq(chargingRequests.status, 'charging')));
}

/** A meter reading of a running transaction of this station; false when there is none. */
export async function recordMeter(db: Db, cpId: string, transactionId: number, meterWh: number): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(ocppTransactions)
      .set({ meterLastWh: meterWh })
      .where(and(eq(ocppTransactions.transactionId, transactionId), eq(ocppTransactions.cpId, cpId), isNull(ocppTransactions.stoppedAt)))
      .returning({ id: ocppTransactions.transactionId });
    if (updated.length === 0) return false;
    await updateRequestFigures(tx, transactionId, meterWh);
    return true;
  });
}

export async function stopTransaction(
  db: Db,
  cpId: string,
  stop: { transactionId: number; meterStopWh: number; at: Date; reason: string | null },
) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(ocppTransactions)
      .set({ meterLastWh: stop.meterStopWh, stoppedAt: stop.at, stopReason: stop.reason })
      .where(
        and(eq(ocppTransactions.transactionId, stop.transactionId), eq(ocppTransactions.cpId, cpId), isNull(ocppTransactions.stoppedAt)),
      )
      .returning({ idTag: ocppTransactions.idTag });
    if (!row) return undefined;
    await updateRequestFigures(tx, stop.transactionId, stop.meterStopWh, { at: stop.at });
    return row;
  });
}

/** The running transaction on a connector (UnlockConnector and the simulator's own bookkeeping). */
export async function runningTransaction(db: Db, connectorId: string) {
  const [row] = await db
    .select({ transactionId: ocppTransactions.transactionId })
    .from(ocppTransactions)
    .where(and(eq(ocppTransactions.connectorId, connectorId), isNull(ocppTransactions.stoppedAt)))
    .limit(1);
  return row;
}

/**
 * Stations silent for 2.5 heartbeat intervals, or whose presence lease lapsed (no instance renews
 * it: the holder died, or the socket closed and no instance took the station again), become
 * OFFLINE, with every connector of theirs (each moved on by one version, like any other change of
 * its status); a lapsed lease also clears connected_instance, so every instance says not connected.
 * The conditions are on the updated row itself, so a renewal committed meanwhile wins. Idempotent,
 * so every instance may run it.
 */
export async function markSilentStationsOffline(db: Db): Promise<string[]> {
  const gone = rowsOf<{ cp_id: string }>(
    await db.execute(sql`
      with gone as (
        update ocpp_stations s set
          offline = true,
          connected_instance = case when s.connected_until < now() then null else s.connected_instance end
        where (not s.offline and (
            (s.last_seen_at is not null and s.last_seen_at < now() - make_interval(secs => s.heartbeat_interval_seconds * 2.5))
            or s.connected_until < now()))
          or (s.connected_instance is not null and s.connected_until < now())
        returning s.cp_id
      ), moved as (
        update connectors set status = 'OFFLINE', version = version + 1, online_since = null
        where cp_id in (select cp_id from gone) and status <> 'OFFLINE' and removed = false
        returning 1
      )
      select cp_id from gone`),
  );
  return gone.map((r) => r.cp_id);
}

/**
 * Which instance holds the station's socket; taking it starts the presence lease (one heartbeat
 * interval and `leaseExtraSeconds`); a close clears only its own mark (the station may be on
 * another one by now) and leaves the lease to lapse.
 */
export async function setConnectedInstance(
  db: Db,
  cpId: string,
  instanceId: string,
  connected: boolean,
  leaseExtraSeconds: number,
): Promise<void> {
  if (connected)
    await db
      .update(ocppStations)
      .set({
        connectedInstance: instanceId,
        connectedUntil: sql`now() + make_interval(secs => ${ocppStations.heartbeatIntervalSeconds} + ${leaseExtraSeconds}::float8)`,
      })
      .where(eq(ocppStations.cpId, cpId));
  else
    await db
      .update(ocppStations)
      .set({ connectedInstance: null })
      .where(and(eq(ocppStations.cpId, cpId), eq(ocppStations.connectedInstance, instanceId)));
}
