/**
 * First route waves (issue 11): in which waves a signed-out visitor's browser fetches what /login
 * needs. Opens /login in Chromium with a fresh profile over a slow line (BENCH_WAVES_RTT_MS, default
 * 150 ms round trip), records when each script and JSON request starts and ends, and prints them in
 * waves: a request starts a new wave when it starts after an earlier one of the page has finished
 * (it waited for that one). One wave = everything fetched in parallel with the entry.
 *
 * The page is opened as cockpit.example.test (mapped to the server), a production host name.
 * Needs the built app served by the real server (it starts nothing):
 *   npx vite build && PORT=8300 DATA_DIR=$(mktemp -d) SEED=small npx tsx server/src/main.ts
 *   npx tsx bench/first-route-waves.ts          (BENCH_URL, default http://localhost:8300)
 * Prints, never fails.
 */
import { chromium } from '@playwright/test';

const server = new URL(process.env.BENCH_URL ?? 'http://localhost:8300');
const rttMs = Number(process.env.BENCH_WAVES_RTT_MS ?? 150);
// Visited under a production-like host name (mapped to the server), so the page is what production
// users get: the language switch shows only on localhost, dev and int hosts and loads after the form.
const base = `http://cockpit.example.test:${server.port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', `--host-resolver-rules=MAP cockpit.example.test ${server.hostname}`],
});
try {
  const context = await browser.newContext({ locale: 'de-DE', serviceWorkers: 'block' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  // Latency only: the files are small, round trips are what a chain of waves costs.
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: rttMs,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });

  type Req = { url: string; start: number; end?: number };
  const requests = new Map<string, Req>();
  cdp.on('Network.requestWillBeSent', (e) => requests.set(e.requestId, { url: e.request.url, start: e.timestamp * 1000 }));
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) r.end = e.timestamp * 1000;
  });

  await page.goto(`${base}/login`);
  await page.locator('input[name="email"]').waitFor();
  const painted = await page.evaluate(() => performance.now());
  await page.waitForTimeout(200);

  const all = [...requests.values()];
  const t0 = Math.min(...all.map((r) => r.start));
  const files = all
    // config.json is fetched beside the entry, not waited for; workbox-window after the first render.
    .filter((r) => /\.(js|json)(\?|$)/.test(new URL(r.url).pathname) && !/config\.json$|workbox-window/.test(r.url))
    .sort((a, b) => a.start - b.start);
  // The document itself is wave 0; a file waited for another when it started after that one ended.
  const wave = new Map<Req, number>();
  for (const f of files) {
    const waitedFor = files.filter((g) => g !== f && wave.has(g) && g.end !== undefined && g.end <= f.start);
    wave.set(f, 1 + Math.max(0, ...waitedFor.map((g) => wave.get(g)!)));
  }
  const waves = Math.max(0, ...wave.values());
  console.log(`first route (/login) over ${rttMs} ms RTT: ${files.length} script/JSON requests in ${waves} wave(s)`);
  for (const f of files) {
    const name = new URL(f.url).pathname;
    const end = f.end === undefined ? '?' : (f.end - t0).toFixed(0);
    console.log(`  wave ${wave.get(f)}  start ${(f.start - t0).toFixed(0).padStart(5)} ms  end ${end.padStart(5)} ms  ${name}`);
  }
  console.log(`login form on screen after ${painted.toFixed(0)} ms (since navigation start)`);
} finally {
  await browser.close();
}
