import { EventEmitter, once } from 'node:events';
import type { RPCClient } from 'ocpp-rpc';
import { logFault, type Log } from '../../http/faults';
import { stationClient } from '../station-client';
import { changeConfiguration, configNumber, getConfiguration, standardConfiguration, type Configuration } from './configuration';

/**
 * One simulated OCPP 1.6J charge point on ocpp-rpc's client: it boots, heartbeats at the interval
 * the central system gave it, reports status changes, runs charging sessions with RFID tags and
 * answers the operations a real station answers (configuration, reset, unlock, trigger, availability).
 */

export interface StationPlan {
  cpId: string;
  connectors: number;
  /** RFID tags the simulated drivers present. */
  tags: string[];
}

export interface SimulationTiming {
  /** A status change (a car plugged in and out again) per this many ms, per station. */
  statusEveryMs: number;
  /** A charging session per this many ms, per station. */
  sessionEveryMs: number;
  sessionLengthMs: number;
  /** Charging power in W. */
  powerW: number;
}

export const defaultTiming: SimulationTiming = { statusEveryMs: 60_000, sessionEveryMs: 300_000, sessionLengthMs: 120_000, powerW: 11_000 };

interface Session {
  transactionId: number;
  meterStartWh: number;
  startedAt: number;
  timer?: NodeJS.Timeout;
}

type Status = 'Available' | 'Preparing' | 'Charging' | 'Finishing' | 'Unavailable' | 'Faulted';

/** Jitter so a thousand stations do not act in the same millisecond. */
const jitter = (ms: number) => Math.round(ms * (0.5 + Math.random()));

export class SimulatedStation {
  readonly cpId: string;
  private client: RPCClient;
  private config: Configuration;
  private timers = new Set<NodeJS.Timeout>();
  private sessions = new Map<number, Session>();
  private status = new Map<number, Status>();
  private inoperative = new Set<number>();
  private meterWh = Math.round(Math.random() * 1_000_000);
  private stopped = false;
  /** 'booted': the central system accepted the boot of a new socket (a reset or a reconnection), never a triggered one. */
  private lifecycle = new EventEmitter();
  /** Answer times of the station's own calls (ms), for the bench. */
  readonly answerTimes: number[] = [];
  sent = 0;

  constructor(
    private plan: StationPlan,
    private endpoint: string,
    private password: string,
    private timing: SimulationTiming = defaultTiming,
    private log: Log = (m) => console.log(m),
  ) {
    this.cpId = plan.cpId;
    this.config = standardConfiguration(plan.connectors, 60);
    this.client = this.newClient();
  }

  private newClient(): RPCClient {
    const client = stationClient({ endpoint: this.endpoint, identity: this.cpId, password: this.password, reconnect: true });
    this.registerHandlers(client);
    // A boot cut short by a closing socket is simply done again at the next opening.
    client.on('open', () => void this.onOpen().catch((err: unknown) => this.fault('boot', err)));
    return client;
  }

  async start(): Promise<void> {
    await this.client.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.clearTimers();
    await this.client.close({ force: true });
  }

  /**
   * Resolves once the station has booted over a socket opened after this call (a reboot or a
   * reconnection); a BootNotification sent on request (TriggerMessage) does not count. Arm it before
   * asking for the reset.
   */
  nextBoot(): Promise<void> {
    return once(this.lifecycle, 'booted').then(() => undefined);
  }

  get tags(): readonly string[] {
    return this.plan.tags;
  }

  connectorStatus(connector: number): Status | undefined {
    return this.status.get(connector);
  }

  runningSession(connector: number): number | undefined {
    return this.sessions.get(connector)?.transactionId;
  }

  /** A call to the central system, timed. */
  async send<T>(action: string, params: unknown): Promise<T> {
    const t0 = performance.now();
    this.sent++;
    const answer = (await this.client.call(action, params)) as T;
    this.answerTimes.push(performance.now() - t0);
    return answer;
  }

  private later(ms: number, run: () => Promise<unknown> | void, repeat = false) {
    const fire = () => {
      if (!repeat) this.timers.delete(timer);
      if (this.stopped) return;
      void Promise.resolve()
        .then(run)
        .catch((err: unknown) => this.fault('scheduled call', err));
    };
    const timer = repeat ? setInterval(fire, ms) : setTimeout(fire, ms);
    timer.unref();
    this.timers.add(timer);
    return timer;
  }

  /** A failed call is logged with the station's id; one cut short by stop() is expected and not. */
  private fault(what: string, err: unknown) {
    if (!this.stopped) logFault(this.log, `simulator: ${what} of station ${this.cpId} failed`, err);
  }

  private clearTimers() {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }

  /** Every (re)connection boots anew, as a station after a power cycle or a lost network does. */
  private async onOpen() {
    this.clearTimers();
    const boot = await this.send<{ status: string; interval: number }>('BootNotification', {
      chargePointVendor: 'CPO Cockpit',
      chargePointModel: 'Simulator',
      chargePointSerialNumber: `SIM-${this.cpId}`,
      firmwareVersion: '1.6.0-sim',
    });
    if (boot.status === 'Accepted' && boot.interval > 0) {
      this.config.set('HeartbeatInterval', { ...this.config.get('HeartbeatInterval')!, value: String(boot.interval) });
    }
    this.scheduleHeartbeat();
    this.lifecycle.emit('booted');
    for (let n = 0; n <= this.plan.connectors; n++) {
      const status: Status = this.inoperative.has(n) ? 'Unavailable' : this.sessions.has(n) ? 'Charging' : 'Available';
      await this.report(n, status);
    }
    this.later(jitter(this.timing.statusEveryMs), () => this.plugInAndOut(), false);
    this.later(jitter(this.timing.sessionEveryMs), () => this.runSession(), false);
  }

  private heartbeat?: NodeJS.Timeout;
  private scheduleHeartbeat() {
    if (this.heartbeat) {
      clearInterval(this.heartbeat);
      this.timers.delete(this.heartbeat);
    }
    const seconds = configNumber(this.config, 'HeartbeatInterval', 60);
    this.heartbeat = this.later(seconds * 1000, () => this.send('Heartbeat', {}), true);
  }

  async report(connectorId: number, status: Status, errorCode = 'NoError') {
    this.status.set(connectorId, status);
    await this.send('StatusNotification', { connectorId, status, errorCode, timestamp: new Date().toISOString() });
  }

  private freeConnector(): number | undefined {
    const free = Array.from({ length: this.plan.connectors }, (_, i) => i + 1).filter(
      (n) => this.status.get(n) === 'Available' && !this.inoperative.has(n),
    );
    return free.length ? free[Math.floor(Math.random() * free.length)] : undefined;
  }

  /** A car plugged in and out again without charging: two status changes. */
  private async plugInAndOut() {
    this.later(jitter(this.timing.statusEveryMs), () => this.plugInAndOut());
    const n = this.freeConnector();
    if (n === undefined) return;
    await this.report(n, 'Preparing');
    this.later(jitter(5000), () => (this.status.get(n) === 'Preparing' ? this.report(n, 'Available') : undefined));
  }

  /** A driver arrives with a tag: Preparing, Authorize, StartTransaction, meter values, StopTransaction. */
  async runSession(connector?: number, tag?: string): Promise<number | undefined> {
    if (connector === undefined) this.later(jitter(this.timing.sessionEveryMs), () => this.runSession());
    const n = connector ?? this.freeConnector();
    if (n === undefined || this.plan.tags.length === 0 || this.sessions.has(n)) return undefined;
    const idTag = tag ?? this.plan.tags[Math.floor(Math.random() * this.plan.tags.length)];
    await this.report(n, 'Preparing');
    const auth = await this.send<{ idTagInfo: { status: string } }>('Authorize', { idTag });
    if (auth.idTagInfo.status !== 'Accepted') {
      await this.report(n, 'Available');
      return undefined;
    }
    const meterStart = this.meterWh;
    const start = await this.send<{ transactionId: number; idTagInfo: { status: string } }>('StartTransaction', {
      connectorId: n,
      idTag,
      meterStart,
      timestamp: new Date().toISOString(),
    });
    const session: Session = { transactionId: start.transactionId, meterStartWh: meterStart, startedAt: Date.now() };
    this.sessions.set(n, session);
    if (start.idTagInfo.status !== 'Accepted') {
      await this.endSession(n, 'DeAuthorized');
      return undefined;
    }
    await this.report(n, 'Charging');
    const sampleMs = configNumber(this.config, 'MeterValueSampleInterval', 30) * 1000;
    session.timer = this.later(sampleMs, () => this.sendMeter(n), true);
    if (connector === undefined) this.later(jitter(this.timing.sessionLengthMs), () => this.endSession(n, 'EVDisconnected'));
    return start.transactionId;
  }

  private energyOf(session: Session): number {
    return session.meterStartWh + Math.round((this.timing.powerW * (Date.now() - session.startedAt)) / 3_600_000);
  }

  private async sendMeter(n: number) {
    const session = this.sessions.get(n);
    if (!session) return;
    await this.send('MeterValues', {
      connectorId: n,
      transactionId: session.transactionId,
      meterValue: [{ timestamp: new Date().toISOString(), sampledValue: [{ value: String(this.energyOf(session)), unit: 'Wh' }] }],
    });
  }

  async endSession(n: number, reason: string): Promise<void> {
    const session = this.sessions.get(n);
    if (!session) return;
    this.sessions.delete(n);
    if (session.timer) {
      clearInterval(session.timer);
      this.timers.delete(session.timer);
    }
    const meterStop = this.energyOf(session);
    this.meterWh = meterStop;
    await this.send('StopTransaction', { transactionId: session.transactionId, meterStop, timestamp: new Date().toISOString(), reason });
    await this.report(n, 'Finishing');
    await this.report(n, this.inoperative.has(n) ? 'Unavailable' : 'Available');
  }

  private registerHandlers(client: RPCClient) {
    stationOperations(this, client, this.config);
  }

  /** Reset: sessions end, the socket closes, the station comes back and boots again. */
  async reboot(type: 'Hard' | 'Soft') {
    for (const n of [...this.sessions.keys()]) await this.endSession(n, type === 'Hard' ? 'HardReset' : 'SoftReset');
    this.clearTimers();
    await this.client.close({ code: 1000, reason: 'Reset' });
    if (this.stopped) return;
    this.client = this.newClient();
    await this.client.connect();
  }

  setInoperative(connector: number, inoperative: boolean) {
    const all = connector === 0 ? Array.from({ length: this.plan.connectors + 1 }, (_, i) => i) : [connector];
    for (const n of all) {
      if (inoperative) this.inoperative.add(n);
      else this.inoperative.delete(n);
    }
    return all;
  }

  heartbeatChanged() {
    this.scheduleHeartbeat();
  }

  get connectors() {
    return this.plan.connectors;
  }

  /** Runs after the answer to a call has left (a station answers a Reset before it resets). */
  afterAnswer(run: () => Promise<unknown>) {
    this.later(50, run);
  }
}

/** The operations a station answers (OCPP 1.6 §5, central system → charge point). */
function stationOperations(station: SimulatedStation, client: RPCClient, config: Configuration) {
  // ocpp-rpc's declarations want a promise from every handler.
  const on = <P>(method: string, answer: (params: P) => Record<string, unknown>) =>
    client.handle(method, ({ params }) => Promise.resolve(answer(params as P)));
  on<{ key?: string[] }>('GetConfiguration', (params) => getConfiguration(config, params.key));
  on<{ key: string; value: string }>('ChangeConfiguration', ({ key, value }) => {
    const status = changeConfiguration(config, key, value);
    if (status === 'Accepted' && key === 'HeartbeatInterval') station.heartbeatChanged();
    return { status };
  });
  on<{ type: 'Hard' | 'Soft' }>('Reset', ({ type }) => {
    station.afterAnswer(() => station.reboot(type));
    return { status: 'Accepted' };
  });
  on<{ connectorId: number }>('UnlockConnector', ({ connectorId }) => {
    if (connectorId < 1 || connectorId > station.connectors) return { status: 'NotSupported' };
    // Unlocking the cable ends the session on it (OCPP 1.6 §5.18).
    station.afterAnswer(() => station.endSession(connectorId, 'UnlockCommand'));
    return { status: 'Unlocked' };
  });
  on<{ connectorId: number; type: 'Inoperative' | 'Operative' }>('ChangeAvailability', ({ connectorId, type }) => {
    if (connectorId < 0 || connectorId > station.connectors) return { status: 'Rejected' };
    const busy = station.runningSession(connectorId) !== undefined;
    const changed = station.setInoperative(connectorId, type === 'Inoperative');
    // A running session finishes first; the station reports the new status when it ends (Scheduled).
    if (busy) return { status: 'Scheduled' };
    station.afterAnswer(async () => {
      for (const n of changed) await station.report(n, type === 'Inoperative' ? 'Unavailable' : 'Available');
    });
    return { status: 'Accepted' };
  });
  on<{ requestedMessage: string; connectorId?: number }>('TriggerMessage', (params) => triggerMessage(station, params));
  // The simulator keeps no charging profiles and no diagnostics file (OCPP 1.6 §6.26: no fileName then).
  on('ClearChargingProfile', () => ({ status: 'Unknown' }));
  on('GetDiagnostics', () => ({}));
}

function triggerMessage(station: SimulatedStation, p: { requestedMessage: string; connectorId?: number }) {
  const connectors = p.connectorId !== undefined ? [p.connectorId] : Array.from({ length: station.connectors + 1 }, (_, i) => i);
  const send: Record<string, () => Promise<unknown>> = {
    BootNotification: () =>
      station.send('BootNotification', { chargePointVendor: 'CPO Cockpit', chargePointModel: 'Simulator', firmwareVersion: '1.6.0-sim' }),
    Heartbeat: () => station.send('Heartbeat', {}),
    StatusNotification: async () => {
      for (const n of connectors) await station.report(n, station.connectorStatus(n) ?? 'Available');
    },
    MeterValues: async () => {
      for (const n of connectors.filter((c) => c > 0)) {
        await station.send('MeterValues', {
          connectorId: n,
          ...(station.runningSession(n) !== undefined ? { transactionId: station.runningSession(n) } : {}),
          meterValue: [
            { timestamp: new Date().toISOString(), sampledValue: [{ value: '0', measurand: 'Power.Active.Import', unit: 'W' }] },
          ],
        });
      }
    },
  };
  const run = send[p.requestedMessage];
  if (!run) return { status: 'NotImplemented' };
  station.afterAnswer(run);
  return { status: 'Accepted' };
}
