import { berlinDate } from '../../../contract/contracts';
import type { Db } from '../db/client';
import { runBills, type BillRunAnswer } from './run';

/**
 * The daily bill run on the server (issue 24): at start and once a day, the previous month is
 * billed unless this process has billed it completely already. Every instance may run it: the run
 * locks each contract `skip locked` and the unique indexes keep every bill once.
 *
 * A month is billed from the 2nd (Berlin) of the next month on, so a session started on the
 * month's last evening has a day to finish; a request finished later still is on no bill (the
 * next run for that month, or a regeneration while the bill is GENERATED, picks it up).
 */
export function monthToBill(now: Date): string | undefined {
  const today = berlinDate(now);
  if (Number(today.slice(8, 10)) < 2) return undefined;
  const [year, month] = today.split('-').map(Number);
  return month === 1 ? `${year - 1}-12` : `${year}-${String(month - 1).padStart(2, '0')}`;
}

const DAY_MS = 86_400_000;

export interface BillJob {
  /** The run under way (tests wait for it). */
  current: () => Promise<BillRunAnswer | undefined>;
  /** Stops the timer and ends a run under way between two contracts. */
  stop: () => Promise<void>;
}

export function startBillJob(db: Db, opts: { clock?: () => Date; log: (msg: string) => void; intervalMs?: number }): BillJob {
  const clock = opts.clock ?? (() => new Date());
  let done: string | undefined;
  let stopped = false;
  let running: Promise<BillRunAnswer | undefined> = Promise.resolve(undefined);
  // A tick while a run is under way adds none: the run decides whether the month is done.
  let busy = false;
  const tick = () => {
    const now = clock();
    const month = monthToBill(now);
    if (!month || month === done || stopped || busy) return;
    busy = true;
    running = running.then(async () => {
      try {
        const started = performance.now();
        const answer = await runBills(db, month, { now, log: opts.log, shouldStop: () => stopped });
        // Done only when every due contract was billed here or found billed: one another instance held
        // locked is billed by it only if it commits, so the month is tried again at the next tick.
        if (answer.failed === 0 && answer.locked === 0 && !stopped) done = month;
        if (answer.created > 0 || answer.failed > 0 || answer.locked > 0)
          opts.log(
            `bill run: ${answer.created} created, ${answer.skipped} skipped (${answer.locked} locked elsewhere), ${answer.failed} failed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
          );
        return answer;
      } catch (err) {
        opts.log(`bill run failed (${err instanceof Error ? err.name : typeof err})`);
        return undefined;
      } finally {
        busy = false;
      }
    });
  };
  tick();
  const timer = setInterval(tick, opts.intervalMs ?? DAY_MS);
  timer.unref();
  return {
    current: () => running,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
