import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgliteWorkerClient } from './pglite-proxy';
import { pgliteOptions } from './client';

/**
 * PGlite's worker runs each query as a named prepared statement per SQL text (`pglite-worker.mjs`).
 * Its answers, errors and transactions must be those of PGlite's own `query`, which a second
 * worker with named statements off runs side by side on the same data.
 */
describe.skipIf(!!process.env.TEST_DATABASE_URL)('PGlite worker with named statements', () => {
  let named: PgliteWorkerClient;
  let plain: PgliteWorkerClient;
  const both = () => [named, plain];

  const setup = `
    create table t (
      id int primary key, big bigint, amount numeric(10, 3), label text, flag boolean,
      at timestamptz, day date, doc jsonb, tags text[], ids int[], uid uuid
    );
    insert into t values
      (1, 9007199254740993, 12.5, 'eins', true, '2026-03-15T10:00:00Z', '2026-03-15', '{"a": [1, 2]}', '{x,"y z"}', '{1,2}', '6a2f41a3-c54c-4c01-9d2b-6e5a4f0b7c11'),
      (2, null, null, null, null, null, null, null, null, null, null),
      (3, -1, 0.001, 'drei', false, '1999-12-31T23:59:59.5Z', '1999-12-31', '"s"', '{}', '{}', null),
      (4, 0, 1, '', null, null, null, '{"ü": "Straße – 東京 🚗"}', '{"","Grüße"}', null, null);
    create table rt (cpo text, n int);
    insert into rt select 'CPO' || (g % 3), g from generate_series(1, 20) g;
    create table charging_requests_like (n int, at timestamptz);
    insert into charging_requests_like select g, '2026-03-01T00:00:00Z'::timestamptz + g * interval '1 day' from generate_series(1, 5) g;`;

  beforeAll(async () => {
    // A small statement cache, so the tests below also see statements closed and prepared again.
    named = await PgliteWorkerClient.start(pgliteOptions(undefined), { maxStatements: 4, perCallPlans: '\\bcharging_request' });
    plain = await PgliteWorkerClient.start(pgliteOptions(undefined), { namedStatements: false });
    for (const c of both()) await c.exec(setup);
  }, 60_000);

  afterAll(async () => {
    await named?.close();
    await plain?.close();
  });

  const prepared = async () =>
    (await plain.query<{ n: number }>('select 1 as n'),
    (await named.exec('select name, statement from pg_prepared_statements'))[0].rows) as {
      name: string;
      statement: string;
    }[];

  // drizzle's options: timestamps, dates, intervals and numeric arrays kept as text (as type ids).
  const drizzleText = [1114, 1184, 1186, 1082, 1231, 1115, 1185, 1187, 1182];
  const cases: [string, unknown[], { rowMode?: 'array' | 'object'; textTypes?: number[] }?][] = [
    ['select * from t order by id', []],
    ['select * from t where id = $1', [1], { rowMode: 'array', textTypes: drizzleText }],
    ['select * from t where id = $1', [3], { rowMode: 'object', textTypes: drizzleText }],
    ['select id from t where label = any($1) order by id', [['eins', 'drei']], { rowMode: 'array' }],
    ['select id, label, doc, tags from t where doc ->> $1 = $2 or label = $3 order by id', ['ü', 'Straße – 東京 🚗', '']],
    ['select id from t where ids && $1::int[] or tags && $2::text[] order by id', [[2], ['y z']]],
    ['select id, at from t where at >= $1 and day < $2 and flag = $3', [new Date('2026-01-01T00:00:00Z'), '2027-01-01', true]],
    ['select id from t where doc @> $1', [{ a: [2] }]],
    ['select id from t where big = $1', [9007199254740993n]],
    ['select $1::text is null as missing, $2::int as n', [null, undefined]],
    ['select cpo, sum(n)::int as total from rt where n > $1 group by cpo order by cpo', [5]],
    ['select count(*)::int as n from charging_requests_like', []],
    [
      'select n, at from charging_requests_like where n = any($1) and at >= $2 order by n',
      [[1, 3, 5], '2026-03-03'],
      { rowMode: 'array', textTypes: drizzleText },
    ],
  ];

  it('answers every query as PGlite itself does, the first time and from a kept statement', async () => {
    for (let round = 0; round < 3; round++) {
      for (const [sql, params, options] of cases) {
        const [a, b] = await Promise.all(
          both().map((c) => c.query(sql, params, options && { rowMode: options.rowMode, parsers: parsersOf(options.textTypes) })),
        );
        expect({ sql, round, answer: a }).toEqual({ sql, round, answer: b });
      }
    }
  });

  it('keeps at most its limit of statements, and none for SQL planned per call', async () => {
    for (const [sql, params] of cases) await named.query(sql, params);
    const kept = await prepared();
    expect(kept.length).toBeLessThanOrEqual(4);
    expect(kept.some((s) => s.statement.includes('charging_requests_like'))).toBe(false);
    expect(kept.length).toBeGreaterThan(0);
    // The last ones used are the ones kept.
    expect(kept.map((s) => s.statement)).toContain(cases.at(-3)![0]);
  });

  it('writes, and gives errors with their code, detail and query; a statement that fails to parse is not kept', async () => {
    for (const c of both()) {
      const inserted = await c.query<{ id: number }>('insert into t (id, label) values ($1, $2) returning id', [10, 'zehn']);
      expect(inserted.rows).toEqual([{ id: 10 }]);
      expect(inserted.affectedRows).toBe(1);
      const updated = await c.query('update t set label = $1 where id >= $2', ['neu', 10]);
      expect(updated.affectedRows).toBe(1);
      const err = (await c.query('insert into t (id) values ($1)', [10]).catch((e: unknown) => e)) as Record<string, unknown>;
      expect(err).toMatchObject({ code: '23505', constraint: 't_pkey', query: 'insert into t (id) values ($1)' });
      expect(String(err.detail)).toContain('(id)=(10)');
      const syntax = (await c.query('selec 1').catch((e: unknown) => e)) as Record<string, unknown>;
      expect(syntax.code).toBe('42601');
      expect(((await c.query('selec 1').catch((e: unknown) => e)) as Record<string, unknown>).code).toBe('42601');
      await c.query('delete from t where id = $1', [10]);
    }
    expect((await prepared()).some((s) => s.statement.startsWith('selec '))).toBe(false);
  });

  it('keeps transactions: rollback, an aborted transaction, statements prepared inside one', async () => {
    for (const c of both()) {
      await c.transaction(async (tx) => {
        await tx.query('insert into rt values ($1, $2)', ['TX', 1]);
        expect((await tx.query<{ n: number }>('select count(*)::int as n from rt where cpo = $1', ['TX'])).rows).toEqual([{ n: 1 }]);
      });
      await expect(
        c.transaction(async (tx) => {
          // Prepared for the first time inside a transaction that rolls back: still usable after it.
          await tx.query('insert into rt (cpo, n) select $1, $2', ['GONE', 2]);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      await c.query('insert into rt (cpo, n) select $1, $2', ['KEPT', 3]);
      // Planned per call, in a transaction that rolls back.
      await expect(
        c.transaction(async (tx) => {
          const added = await tx.query('insert into charging_requests_like (n) values ($1) returning n', [99]);
          expect(added.rows).toEqual([{ n: 99 }]);
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect((await c.query('select count(*)::int as n from charging_requests_like where n = $1', [99])).rows).toEqual([{ n: 0 }]);
      const bad = (await c.query('select n from charging_requests_like where n = $1', ['x']).catch((e: unknown) => e)) as { code?: string };
      expect(bad.code).toBe('22P02');
      const err = await c
        .transaction(async (tx) => {
          await tx.query('insert into t (id) values ($1)', [1]).catch(() => {});
          return tx.query('select count(*)::int as n from rt where cpo = $1', ['TX']);
        })
        .catch((e: unknown) => e);
      expect((err as { code?: string }).code).toBe('25P02');
      const rows = (await c.query<{ cpo: string }>("select cpo from rt where cpo in ('TX', 'GONE', 'KEPT') order by cpo")).rows;
      expect(rows.map((r) => r.cpo)).toEqual(['KEPT', 'TX']);
    }
  });

  it('runs a kept statement again after its table changed under it', async () => {
    const sql = 'select * from rt where n = $1';
    for (const c of both()) {
      expect((await c.query(sql, [4])).rows).toEqual([{ cpo: 'CPO1', n: 4 }]);
      await c.exec('alter table rt add column note text');
      expect((await c.query(sql, [4])).rows).toEqual([{ cpo: 'CPO1', n: 4, note: null }]);
      await c.exec('alter table rt drop column note');
    }
  });
});

const keep = (value: string) => value;
const parsersOf = (textTypes: number[] | undefined) => textTypes && Object.fromEntries(textTypes.map((oid) => [oid, keep]));
