import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm run new-area` into a scratch copy of the repository (the files git tracks, as they are in
// the working tree), then the type check and the linter over the whole copy: what the scaffold
// writes must fit the project as generated. The test command's own run of a scaffolded area (server
// test, e2e, budgets) was checked by hand (ARCHITECTURE.md, How to add an area).
const repo = path.resolve(import.meta.dirname, '..');
let copy: string;
function run(cmd: string, args: string[]): string {
  try {
    return execFileSync(cmd, args, { cwd: copy, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    // tsc and eslint say what is wrong on stdout, the scaffold on stderr: show both.
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed:\n${stdout ?? ''}\n${stderr ?? ''}`, { cause: error });
  }
}

beforeAll(() => {
  copy = mkdtempSync(path.join(tmpdir(), 'cockpit-new-area-'));
  const tracked = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo, encoding: 'utf8' });
  for (const rel of tracked.split('\0').filter(Boolean)) {
    if (existsSync(path.join(repo, rel))) cpSync(path.join(repo, rel), path.join(copy, rel), { recursive: true });
  }
  symlinkSync(path.join(repo, 'node_modules'), path.join(copy, 'node_modules'));
  run('npx', ['tsx', 'scripts/new-area.ts', 'charge-cards', '--path', '/ladekarten', '--de', 'Ladekarten', '--en', 'Charge cards']);
}, 120_000);
afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('npm run new-area', () => {
  it('writes the area, its migration, its menu entry and its route into the tree', () => {
    for (const rel of [
      'contract/charge-cards.ts',
      'server/src/charge-cards/routes.ts',
      'server/src/charge-cards/charge-cards.test.ts',
      'src/features/charge-cards/api/charge-cards-keys.ts',
      'src/routes/_app/ladekarten.tsx',
      'tests/e2e/charge-cards.spec.ts',
    ]) {
      expect(existsSync(path.join(copy, rel)), rel).toBe(true);
    }
    expect(readFileSync(path.join(copy, 'src/route-tree.gen.ts'), 'utf8')).toContain("'/_app/ladekarten'");
    expect(readFileSync(path.join(copy, 'server/src/app.ts'), 'utf8')).toContain('...chargeCardsRoutes,');
    const journal = JSON.parse(readFileSync(path.join(copy, 'server/src/db/migrations/meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    expect(journal.entries.at(-1)!.tag).toMatch(/_charge_cards$/);
    const de = JSON.parse(readFileSync(path.join(copy, 'locales/de.json'), 'utf8'));
    expect(de.nav.chargeCards).toBe('Ladekarten');
  });

  it('refuses a name that is not kebab-case or exists already', () => {
    expect(() => run('npx', ['tsx', 'scripts/new-area.ts', 'ChargeCards'])).toThrow(/kebab-case/);
    expect(() => run('npx', ['tsx', 'scripts/new-area.ts', 'charge-cards'])).toThrow(/exists already/);
  });

  it('type-checks, is formatted and lints clean as generated', () => {
    run('npx', ['tsc', '-p', 'tsconfig.json', '--noEmit']);
    run('npx', ['prettier', '--check', '--log-level', 'warn', '.']);
    run('npx', ['eslint', '.']);
  }, 300_000);
});
