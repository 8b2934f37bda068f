import type { Db } from '../db/client';

/** One plan node of EXPLAIN (FORMAT JSON), as far as the tests read it. */
export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Actual Rows': number;
  'Actual Loops': number;
  'Rows Removed by Filter'?: number;
  'Rows Removed by Index Recheck'?: number;
  'Rows Removed by Join Filter'?: number;
  Plans?: PlanNode[];
}

type Query = (...args: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Every node of a plan, depth first (init plans and subplans are children too). */
export const planNodes = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(planNodes)];

/**
 * The rows a node read: those it passed on and those its filters dropped, times its loops. Counts,
 * not times, so they compare across machines and runs.
 */
export const rowsRead = (n: PlanNode) =>
  (n['Actual Rows'] + (n['Rows Removed by Filter'] ?? 0) + (n['Rows Removed by Index Recheck'] ?? 0)) * n['Actual Loops'];

/**
 * Runs `run` while recording the statements it sends (both drivers call `$client.query`), then
 * each one again under EXPLAIN (ANALYZE, FORMAT JSON) with its values: the plans it ran.
 */
export async function plansOf(db: Db, run: () => Promise<unknown>): Promise<{ sql: string; values: unknown[]; plan: PlanNode }[]> {
  const client = (db as unknown as { $client: { query: Query } }).$client;
  const original = client.query;
  const seen: { text: string; values: unknown[] }[] = [];
  client.query = function (this: unknown, ...args: unknown[]) {
    const [first, second] = args;
    if (typeof first === 'string') seen.push({ text: first, values: (second as unknown[]) ?? [] });
    else if (first && typeof first === 'object' && 'text' in first) {
      const q = first as { text: string; values?: unknown[] };
      seen.push({ text: q.text, values: (second as unknown[] | undefined) ?? q.values ?? [] });
    }
    return original.apply(this, args);
  };
  try {
    await run();
  } finally {
    client.query = original;
  }
  const plans: { sql: string; values: unknown[]; plan: PlanNode }[] = [];
  for (const { text, values } of seen) {
    if (!/^\s*(select|with)\b/i.test(text)) continue;
    const result = await original.call(client, `explain (analyze, format json) ${text}`, values);
    const cell = Object.values(result.rows[0])[0];
    const json = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
    plans.push({ sql: text, values, plan: json[0].Plan });
  }
  return plans;
}

/** The rows every statement of `run` read, in all. */
export async function totalRowsRead(db: Db, run: () => Promise<unknown>): Promise<number> {
  const plans = await plansOf(db, run);
  return plans.flatMap((p) => planNodes(p.plan)).reduce((sum, n) => sum + rowsRead(n), 0);
}
