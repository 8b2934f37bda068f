// @ts-check
/**
 * The bench's HTTP client (`bench/run.ts`), in a worker thread of its own so that it does not share
 * the server's event loop: with `fetch` on the server's thread the client took about as much of
 * that thread as a list answer, and decompressing the answers (undici does) more than the server
 * spent compressing them. Here plain `node:http` with keep-alive connections, one per caller, as a
 * load generator would: it asks for Brotli or gzip as a browser does, reads each answer whole and
 * does not decompress it.
 *
 * Message in: `{ url, headers, count, concurrency, seconds? }` (with `seconds`, no new request
 * starts after that time); answer: `{ latencies, errors, firstError,
 * cpuMs }`, with `cpuMs` this thread's own CPU time while it ran (Linux: /proc/thread-self/stat).
 * Plain JavaScript: Node 20 gives a worker thread no module hooks, so tsx cannot load TypeScript here.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { URL } from 'node:url';
import { parentPort } from 'node:worker_threads';

const port = parentPort;
if (!port) throw new Error('load-worker.mjs must run in a worker thread');

/** This thread's user + system CPU time in ms (0 where /proc/thread-self is missing). */
function threadCpuMs() {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5) (utime, stime), counted from the state field (3) here.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * @param {{ url: string; headers: Record<string, string>; count: number; concurrency: number; seconds?: number }} job
 */
async function run({ url, headers, count, concurrency, seconds }) {
  const deadline = seconds === undefined ? Infinity : performance.now() + seconds * 1000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  /** @type {number[]} */
  const latencies = [];
  let errors = 0;
  /** @type {string | undefined} */
  let firstError;
  /** @returns {Promise<void>} */
  const call = () =>
    new Promise((done) => {
      const t0 = performance.now();
      const fail = (/** @type {string} */ why) => {
        errors++;
        firstError ??= why;
        latencies.push(performance.now() - t0);
        done();
      };
      const req = http.get(target, { agent, headers: { 'accept-encoding': 'br, gzip', ...headers } }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          if (res.statusCode !== 200) return fail(`HTTP ${res.statusCode}`);
          latencies.push(performance.now() - t0);
          done();
        });
        res.on('error', (err) => fail(String(err)));
      });
      req.on('error', (err) => fail(String(err)));
    });
  let started = 0;
  const cpu0 = threadCpuMs();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (started < count && performance.now() < deadline) {
        started++;
        await call();
      }
    }),
  );
  const cpuMs = threadCpuMs() - cpu0;
  agent.destroy();
  return { latencies, errors, firstError, cpuMs };
}

port.on('message', (job) => {
  run(job).then((result) => port.postMessage(result));
});
