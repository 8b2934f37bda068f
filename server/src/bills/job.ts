import { berlinDate } from '../../../contract/contracts';
import type { Db } from '../db/client';
import { startJob } from '../http/jobs';
import { runBills, type BillRunAnswer } from './run';

/**
 * The daily bill run on the server (issue 24): at start and once a day, the previous month is
 * billed unless this process has billed it completely already. Every instance ticks and one runs it
 * at a time (the job's lease); the run still locks each contract `skip locked` and the unique
 * indexes keep every bill once.
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

/**
 * The bill run as a job of the one runner (`http/jobs.ts`): one round at a time across instances;
 * a tick whose month is done here starts none. Another instance's round holding the job's lease
 * skips this one's, and the month is tried again at the next tick.
 */
export function startBillJob(
  db: Db,
  opts: { clock?: () => Date; log: (msg: string) => void; intervalMs?: number; holder?: string },
): BillJob {
  const clock = opts.clock ?? (() => new Date());
  let done: string | undefined;
  let month: string | undefined;
  const job = startJob(db, {
    name: 'bill-run',
    everyMs: 0,
    log: opts.log,
    holder: opts.holder,
    run: async ({ shouldStop }) => {
      const now = clock();
      const answer = await runBills(db, month!, { now, log: opts.log, shouldStop });
      // Done only when every due contract was billed here or found billed: one another instance held
      // locked is billed by it only if it commits, so the month is tried again at the next tick.
      if (answer.failed === 0 && answer.locked === 0 && !shouldStop()) done = month;
      return answer;
    },
    summary: (answer) =>
      `bill run: ${answer.created} created, ${answer.skipped} skipped (${answer.locked} locked elsewhere), ${answer.failed} failed`,
  });
  let running: Promise<BillRunAnswer | undefined> = Promise.resolve(undefined);
  const tick = () => {
    month = monthToBill(clock());
    if (!month || month === done) return;
    running = job.runNow().then((round) => ('result' in round ? round.result : undefined));
  };
  tick();
  const timer = setInterval(tick, opts.intervalMs ?? DAY_MS);
  timer.unref();
  return {
    current: () => running,
    stop: async () => {
      clearInterval(timer);
      await job.stop();
    },
  };
}
