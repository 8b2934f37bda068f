import { fork } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { SeedResult, SeedSize } from './seed';

/**
 * Seeds an empty PGlite database (`dataDir`, as `DATA_DIR` names it) in a child process, which exits
 * when done. Seeding through the server's own PGlite worker left ~700 MB of its memory in the
 * server's process for good (the worker's grown WASM memory and the message buffers of 100k-row
 * inserts; neither is given back to the system), so a first start idled at ~1 GB instead of ~270 MB
 * (`bench/idle-memory.ts`). The child loads the TypeScript through tsx's loader, as `npm start` does.
 */
export function seedInChildProcess(dataDir: string, size: SeedSize, now: Date): Promise<SeedResult | undefined> {
  const entry = fileURLToPath(new URL('./seed-child.ts', import.meta.url));
  return new Promise((resolve, reject) => {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
    const child = fork(entry, [dataDir, size, now.toISOString()], {
      execArgv: ['--import', tsx],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    let answer: { result: SeedResult | null } | undefined;
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    child.on('message', (msg) => (answer = msg as { result: SeedResult | null }));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (code === 0 && answer) resolve(answer.result ?? undefined);
      else reject(new Error(`seeding the database failed (exit ${code ?? signal}): ${stderr.trim()}`));
    });
  });
}
