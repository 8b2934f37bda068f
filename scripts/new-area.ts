/**
 * `npm run new-area <name> [-- --path /url --de "Titel" --en "Title"]`: writes a working read-only
 * area, the way ARCHITECTURE.md's "How to add an area" builds one by hand: a table of entries per
 * operator (schema file and migration), its contract module, the server's routes and scoped
 * queries with their access declaration and a server test, the key and query factories, the list
 * route with loader and URL search, the list page, the menu entry with its icon, the messages in
 * both languages and one e2e journey. It then regenerates the route tree. What it writes passes
 * `npm test` as it is (scripts/new-area.test.ts runs it into a scratch copy and type-checks and
 * lints the result); the area's own rules and screens grow from there.
 *
 * `name` is kebab-case (`charge-cards`): the folder, the file names, the API path `/bff/<name>`,
 * the query key root and the table (`charge_cards`). `--path` is the screen's URL (default
 * `/<name>`), `--de`/`--en` its title (default: the name in words).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(process.env.NEW_AREA_ROOT ?? path.join(import.meta.dirname, '..'));

function fail(message: string): never {
  console.error(`new-area: ${message}`);
  process.exit(1);
}

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { path: { type: 'string' }, de: { type: 'string' }, en: { type: 'string' } },
});
const name = positionals[0] ?? fail('usage: npm run new-area <kebab-case-name> [-- --path /url --de "Titel" --en "Title"]');
if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) fail(`'${name}' is not a kebab-case name (e.g. charge-cards)`);
const words = name.split('-');
const camel =
  words[0] +
  words
    .slice(1)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');
const pascal = camel[0]!.toUpperCase() + camel.slice(1);
const snake = words.join('_');
const urlPath = values.path ?? `/${name}`;
if (!/^\/[a-z0-9-]+$/.test(urlPath)) fail(`--path '${urlPath}' must be one lower-case URL segment such as /ladekarten`);
const titleEn = values.en ?? words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join(' ');
const titleDe = values.de ?? titleEn;

const file = (rel: string) => path.join(root, rel);
const read = (rel: string) => readFileSync(file(rel), 'utf8');
const written: string[] = [];

function create(rel: string, text: string) {
  if (existsSync(file(rel))) fail(`${rel} exists already: the area '${name}' seems to be there`);
  mkdirSync(path.dirname(file(rel)), { recursive: true });
  writeFileSync(file(rel), text);
  written.push(rel);
}

/** Inserts `text` into an existing file right after the first match of `anchor` (a RegExp). */
function insertAfter(rel: string, anchor: RegExp, text: string) {
  const source = read(rel);
  const match = anchor.exec(source) ?? fail(`${rel}: could not find ${anchor} (was the file reshaped? see ARCHITECTURE.md)`);
  const at = match.index + match[0].length;
  writeFileSync(file(rel), source.slice(0, at) + text + source.slice(at));
  written.push(rel);
}

if (existsSync(file(`src/features/${name}`)) || existsSync(file(`server/src/${name}`))) fail(`the area '${name}' exists already`);

// ---- contract
create(
  `contract/${name}.ts`,
  `import * as z from 'zod/mini';

/** ${titleEn}: entries of an operator, listed server-paged (GET /bff/${name}). */
export const ${camel}RowSchema = z.object({ id: z.int(), cpoId: z.string(), name: z.string(), createdAt: z.string() });
export type ${pascal}Row = z.infer<typeof ${camel}RowSchema>;
`,
);

// ---- server: table, migration, queries, routes, test
create(
  `server/src/db/schema/${name}.ts`,
  `import { index, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { operators } from './operators';

/** ${titleEn}: one row per entry, each of one operator (the caller's scope filters by cpo_id, hence the index). */
export const ${camel} = pgTable(
  '${snake}',
  {
    id: serial('id').primaryKey(),
    cpoId: text('cpo_id')
      .notNull()
      .references(() => operators.cpoId),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('${snake}_cpo_id_idx').on(t.cpoId, t.id)],
);
`,
);
insertAfter(
  'server/src/db/client.ts',
  /import \* as stationsTables from '\.\/schema\/stations';\n/,
  `import * as ${camel}Tables from './schema/${name}';\n`,
);
insertAfter('server/src/db/client.ts', /const schema = \{\n/, `  ...${camel}Tables,\n`);

create(
  `server/src/${name}/queries.ts`,
  `import { count, desc, sql } from 'drizzle-orm';
import type { ${pascal}Row } from '../../../contract/${name}';
import type { Scope } from '../auth/scope';
import type { Db } from '../db/client';
import { ${camel} } from '../db/schema/${name}';

/** One page of the caller's entries, newest first; the total rides along in the page's statement. */
export async function list${pascal}(db: Db, scope: Scope, page: number, size: number): Promise<{ total: number; rows: ${pascal}Row[] }> {
  const where = scope.where(${camel}.cpoId);
  const total = db.select({ n: count() }).from(${camel}).where(where);
  const rows = await db
    .select({
      id: ${camel}.id,
      cpoId: ${camel}.cpoId,
      name: ${camel}.name,
      createdAt: ${camel}.createdAt,
      listTotal: sql<number>\`(\${total})\`.mapWith(Number),
    })
    .from(${camel})
    .where(where)
    .orderBy(desc(${camel}.id))
    .limit(size)
    .offset(page * size);
  return {
    total: rows.length ? rows[0]!.listTotal : (await total)[0]!.n,
    rows: rows.map(({ listTotal: _t, createdAt, ...r }) => ({ ...r, createdAt: createdAt.toISOString() })),
  };
}
`,
);

create(
  `server/src/${name}/routes.ts`,
  `import { pageQuerySchema } from '../../../contract/common';
import { paged } from '../http/respond';
import { routeTable } from '../http/route-table';
import { parseQuery } from '../http/validate';
import { list${pascal} } from './queries';

/** ${titleEn}: any signed-in user, scoped to the caller's operators. */
export const ${camel}Routes = routeTable('bff', [
  {
    method: 'GET',
    path: '/${name}',
    access: 'user',
    handler: async (c) => {
      const { page, size } = parseQuery(c, pageQuerySchema);
      const { total, rows } = await list${pascal}(c.get('db'), c.get('auth').scope, page, size);
      return paged(c, total, rows);
    },
  },
]);
`,
);
insertAfter(
  'server/src/app.ts',
  /import \{ stationRoutes \} from '\.\/stations\/routes';\n/,
  `import { ${camel}Routes } from './${name}/routes';\n`,
);
insertAfter('server/src/app.ts', /export const routes: readonly Route\[\] = \[\n/, `  ...${camel}Routes,\n`);

create(
  `server/src/${name}/${name}.test.ts`,
  `import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operators } from '../db/schema/operators';
import { ${camel} } from '../db/schema/${name}';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

const list = (token?: string, query = 'page=0&size=50') => h.request('GET', \`/bff/${name}?\${query}\`, { token });
const names = (res: Awaited<ReturnType<typeof list>>) => (res.body.data.response as { name: string }[]).map((r) => r.name);

describe('${titleEn}', () => {
  it("lists an admin every operator's entries and anyone else only their operators' ones, newest first", async () => {
    const admin = (await h.login('admin')).access_token;
    const operator = (await h.login('operator')).access_token;
    const own = ((await h.request('GET', '/bff/cpos?page=0&size=1000', { token: operator })).body.data.response as { cpoId: string }[]).map(
      (o) => o.cpoId,
    );
    const other = (await h.db.select({ cpoId: operators.cpoId }).from(operators)).find((o) => !own.includes(o.cpoId))!.cpoId;
    await h.db.insert(${camel}).values([
      { cpoId: own[0]!, name: 'mine, older' },
      { cpoId: other, name: 'theirs' },
      { cpoId: own[0]!, name: 'mine, newer' },
    ]);

    const asAdmin = await list(admin);
    expect(asAdmin.status).toBe(200);
    expect(names(asAdmin)).toEqual(['mine, newer', 'theirs', 'mine, older']);
    expect(asAdmin.body.data.totalNumberOfRecords).toBe(3);
    const asOperator = await list(operator);
    expect(names(asOperator)).toEqual(['mine, newer', 'mine, older']);
    expect(asOperator.body.data.totalNumberOfRecords).toBe(2);
    // A page past the end still knows the total.
    expect((await list(operator, 'page=5&size=10')).body.data).toEqual({ totalNumberOfRecords: 2, response: [] });
  });

  it('refuses anonymous callers and a broken page', async () => {
    expect((await list()).status).toBe(401);
    const admin = (await h.login('admin')).access_token;
    expect((await list(admin, 'page=-1&size=10')).status).toBe(400);
  });
});
`,
);

// ---- client: keys, search, query factory, page, route, menu, messages
create(
  `src/features/${name}/api/${name}-keys.ts`,
  `import { queryRoot } from '../../../offline/query-roots';

export interface ${pascal}ListParams {
  page: number;
  size: number;
}

/** Query keys of the ${titleEn.toLowerCase()} area, the only definition of them; kept on the device for offline use. */
export const ${camel}Keys = {
  all: queryRoot('${name}', { persist: true }),
  lists: () => [...${camel}Keys.all, 'list'] as const,
  list: (params: ${pascal}ListParams) => [...${camel}Keys.lists(), params] as const,
};
`,
);
create(
  `src/features/${name}/api/${name}-queries.ts`,
  `import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { paged } from '../../../../contract/common';
import { ${camel}RowSchema } from '../../../../contract/${name}';
import { apiRequest } from '../../../api/client';
import { ${camel}Keys, type ${pascal}ListParams } from './${name}-keys';

const ${camel}ListAnswerSchema = paged(${camel}RowSchema);

/** One page of GET /bff/${name}. */
export const ${camel}ListQueryOptions = (params: ${pascal}ListParams) =>
  queryOptions({
    queryKey: ${camel}Keys.list(params),
    queryFn: ({ signal }) =>
      apiRequest({ service: 'bff', path: '/${name}', query: { page: params.page, size: params.size }, schema: ${camel}ListAnswerSchema, signal }),
    placeholderData: keepPreviousData,
  });
`,
);
create(
  `src/features/${name}/${name}-list-page.tsx`,
  `import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ${pascal}Row } from '../../../contract/${name}';
import { useFormat } from '../../i18n/format';
import { useT } from '../../i18n/i18n-context';
import { PagedListTable } from '../../layout/paged-list-table';
import { ListPanel } from '../../ui/card';
import type { DataTableColumn } from '../../ui/data-table';
import { PageHeader } from '../../ui/page-header';
import type { pageSearch } from '../../ui/list-search';
import { useListFilters, type ListStateSource } from '../../ui/use-list-filters';
import { ${camel}ListQueryOptions } from './api/${name}-queries';

/** The list only pages: no filters besides page and size (a filter goes into api/${name}-search.ts). */
type Filters = Omit<typeof pageSearch.defaults, 'page' | 'size'>;
const noFilters: Filters = {};

/** ${urlPath}: the server-paged list of the caller's ${titleEn.toLowerCase()}. */
export function ${pascal}ListPage({ list: source }: { list: ListStateSource<Filters> }) {
  const t = useT();
  const format = useFormat();
  const list = useListFilters<Filters>(noFilters, undefined, source);
  const { page, size } = list;
  const query = useQuery(${camel}ListQueryOptions({ page, size }));
  const columns = useMemo<DataTableColumn<${pascal}Row>[]>(
    () => [
      { id: 'name', header: t('${camel}.columns.name'), cell: (r) => r.name, isRowHeader: true },
      { id: 'cpoId', header: t('${camel}.columns.operator'), cell: (r) => r.cpoId },
      { id: 'createdAt', header: t('${camel}.columns.created'), cell: (r) => format.date(r.createdAt) },
    ],
    [t, format],
  );
  return (
    <div className="flex flex-col gap-5">
      <PageHeader title={t('${camel}.title')} description={t('${camel}.intro')} className="mb-0" />
      <ListPanel heading={t('${camel}.heading')} headingId="${name}-table-heading">
        <PagedListTable<${pascal}Row>
          query={query}
          errorMessage={t('${camel}.error')}
          aria-labelledby="${name}-table-heading"
          columns={columns}
          getRowId={(row) => String(row.id)}
          page={page}
          pageSize={size}
          onPageChange={list.setPage}
          onPageSizeChange={list.setPageSize}
          emptyText={t('${camel}.empty')}
          minWidth={480}
        />
      </ListPanel>
    </div>
  );
}
`,
);
create(
  `src/routes/_app${urlPath}.tsx`,
  `import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { ${camel}ListQueryOptions } from '../../features/${name}/api/${name}-queries';
import { ${pascal}ListPage } from '../../features/${name}/${name}-list-page';
import { loadQuery } from '../../offline/query-runtime';
import { pageSearch } from '../../ui/list-search';

function ${pascal}Route() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return <${pascal}ListPage list={{ state: search, onChange: (next) => void navigate({ search: next }) }} />;
}

export const Route = createFileRoute('/_app${urlPath}')({
  validateSearch: pageSearch,
  search: { middlewares: [stripSearchParams(pageSearch.defaults)] },
  loaderDeps: ({ search }) => search,
  loader: ({ deps }) => loadQuery(${camel}ListQueryOptions(deps)),
  component: ${pascal}Route,
});
`,
);

insertAfter('src/layout/nav-items.ts', /export type NavKey =\n?\s*/, `'${camel}' | `);
insertAfter(
  'src/layout/nav-items.ts',
  /\{ key: 'users', href: '\/nutzer', dataRoot: 'users' \},\n/,
  `      { key: '${camel}', href: '${urlPath}', dataRoot: '${name}' },\n`,
);
insertAfter(
  'src/layout/nav-icons.tsx',
  /export const navIcons = \{\n/,
  `  ${camel}: (
    <Icon>
      <rect x="4" y="4" width="16" height="16" rx="2" />
      <path d="M8 9h8M8 13h8M8 17h5" />
    </Icon>
  ),
`,
);

function addMessages(locale: 'de' | 'en', nav: string, area: Record<string, unknown>) {
  const rel = `locales/${locale}.json`;
  const messages = JSON.parse(read(rel)) as Record<string, Record<string, unknown>>;
  messages.nav![camel] = nav;
  messages[camel] = area;
  writeFileSync(file(rel), JSON.stringify(messages, null, 2) + '\n');
  written.push(rel);
}
addMessages('de', titleDe, {
  title: titleDe,
  intro: `${titleDe} Ihrer Betreiber.`,
  heading: titleDe,
  empty: 'Keine Daten',
  error: `${titleDe} konnten nicht geladen werden.`,
  columns: { name: 'Name', operator: 'Betreiber', created: 'Angelegt am' },
});
addMessages('en', titleEn, {
  title: titleEn,
  intro: `${titleEn} of your operators.`,
  heading: titleEn,
  empty: 'No data',
  error: `The ${titleEn.toLowerCase()} could not be loaded.`,
  columns: { name: 'Name', operator: 'Operator', created: 'Created on' },
});

create(
  `tests/e2e/${name}.spec.ts`,
  `import { expect, test } from '@playwright/test';
import { expectNoSeriousA11yViolations, signIn } from './helpers';

test('${titleEn}: an operator opens the list from the menu, its page in the URL', async ({ page }) => {
  await signIn(page, 'operator');
  await page.getByRole('navigation').getByRole('link', { name: '${titleDe}', exact: true }).first().click();
  await expect(page).toHaveURL(/${urlPath.replace(/\//g, '\\/')}$/);
  await expect(page.getByRole('heading', { level: 1, name: '${titleDe}' })).toBeVisible();
  await expect(page.getByText('Keine Daten')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
});
`,
);

// ---- generated files: the migration and the route tree
const npx = (...args: string[]) => execFileSync('npx', args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] }).toString();
npx('drizzle-kit', 'generate', '--name', snake);
npx(
  'tsx',
  '-e',
  "import('@tanstack/router-generator').then(async (g) => { const config = g.getConfig({ routesDirectory: 'src/routes', generatedRouteTree: 'src/route-tree.gen.ts' }); await new g.Generator({ config, root: process.cwd() }).run(); })",
);
npx('prettier', '--write', '--log-level', 'warn', ...written, 'src/route-tree.gen.ts', 'server/src/db/migrations');

console.log(`new-area: wrote the area '${name}' (${urlPath}):\n  ${[...new Set(written)].join('\n  ')}
plus a migration in server/src/db/migrations and the regenerated src/route-tree.gen.ts.
Next: npm test. Then grow it: the contract's fields, the table's columns and their migration, the page's filters.`);
