import * as z from 'zod/mini';
import { commaListSchema, isoDateSchema, pageQuerySchema, paged } from './common';
import { type ChargingRequestStatus, chargingRequestStatuses } from './enums';

/**
 * Cockpit (spec 1 §2-3, §5, §7, §9; spec 3 §4): KPIs and chart (`GET /bff/kpi/get-graph`), the
 * charging-request table (`GET /booking-service/bookings/get-charging-history`, also used by the
 * user and station pages with contractKey / connectorId) and the admin clean action
 * (`PUT /bff/charging-requests/clean`). The location select is the locations area's
 * (`contract/locations.ts`).
 *
 * Time zone: every calendar day on this wire (startDate/endDate filters, DAYS/MONTHS buckets) is a
 * day in Europe/Berlin. Timestamps (startDate/endDate/lastUpdateTimestamp of a row) are ISO 8601
 * instants in UTC.
 */
export const COCKPIT_TIME_ZONE = 'Europe/Berlin';

/** Longest accepted range of a graph query, in days (inclusive of both ends). */
export const MAX_GRAPH_RANGE_DAYS = 400;

// ---------------------------------------------------------------------------------------------
// Status catalogue
// ---------------------------------------------------------------------------------------------

/** Display groups of a charging request (spec 3 §4), sent as `chargingRequestStatusMapping.enumName`. */
export const chargingRequestDisplayGroups = ['Finished', 'Charging', 'In processing', 'Rejected', 'Broken'] as const;
export type ChargingRequestDisplayGroup = (typeof chargingRequestDisplayGroups)[number];

/** Colour of each display group (hex), sent as `chargingRequestStatusMapping.colourCode`. */
export const displayGroupColours: Record<ChargingRequestDisplayGroup, string> = {
  Finished: '#2E7D32',
  Charging: '#1565C0',
  'In processing': '#F9A825',
  Rejected: '#EF6C00',
  Broken: '#C62828',
};

/** Display group of each request status. */
export const statusDisplayGroup: Record<ChargingRequestStatus, ChargingRequestDisplayGroup> = {
  processing: 'In processing',
  accepted: 'In processing',
  connected: 'In processing',
  charging: 'Charging',
  paused: 'Charging',
  termination_requested: 'Charging',
  terminated_request: 'Charging',
  finished: 'Finished',
  denied: 'Rejected',
  denied_parking_timer: 'Rejected',
  terminated_not_started: 'Rejected',
  terminated_rejected: 'Rejected',
  broken: 'Broken',
};

export const chargingRequestStatusMappingSchema = z.object({
  enumName: z.string(),
  colourCode: z.string(),
});
export type ChargingRequestStatusMapping = z.infer<typeof chargingRequestStatusMappingSchema>;

/** The mapping the server sends for a status (the client may use it for rows it builds itself). */
export function statusMapping(status: ChargingRequestStatus): ChargingRequestStatusMapping {
  const group = statusDisplayGroup[status];
  return { enumName: group, colourCode: displayGroupColours[group] };
}

/** Table filter options (spec 1 §2) and the statuses each one selects. Every status is in exactly one. */
export const chargingHistoryFilters = ['Pending', 'InProgress', 'Completed', 'Failed'] as const;
export type ChargingHistoryFilter = (typeof chargingHistoryFilters)[number];
export const filterStatuses: Record<ChargingHistoryFilter, readonly ChargingRequestStatus[]> = {
  /** Not started yet. */
  Pending: ['processing', 'accepted', 'connected'],
  /** Energy is flowing or the stop is under way. */
  InProgress: ['charging', 'paused', 'termination_requested', 'terminated_request'],
  Completed: ['finished'],
  /** Never delivered a session: refused, aborted before start, or a fault. */
  Failed: ['denied', 'denied_parking_timer', 'terminated_not_started', 'terminated_rejected', 'broken'],
};

/** Period display: early statuses show only the start time followed by 'Uhr'. */
export const EARLY_STATUSES: readonly ChargingRequestStatus[] = ['processing', 'accepted', 'connected'];
/** Period display: these show the start time plus a 'charging' label; all others show start to end. */
export const CHARGING_LABEL_STATUSES: readonly ChargingRequestStatus[] = ['charging', 'paused', 'terminated_request'];

/** Statuses the admin clean call closes when a request has not been updated for the threshold. */
export const STUCK_EARLY_STATUSES: readonly ChargingRequestStatus[] = ['processing', 'accepted', 'connected'];
/** The status a cleaned request is set to (its endDate and lastUpdateTimestamp become now). */
export const CLEANED_STATUS: ChargingRequestStatus = 'terminated_not_started';

/**
 * Statuses whose energy and cost count in the KPIs (totalEnergyCharged, totalRevenue) and in the
 * TOTAL_ENERGY graph: every status that can carry delivered energy, i.e. InProgress, Completed and
 * broken (a fault after energy flowed is still billed). The other statuses never delivered energy.
 */
export const KPI_ENERGY_STATUSES: readonly ChargingRequestStatus[] = [...filterStatuses.InProgress, ...filterStatuses.Completed, 'broken'];

// ---------------------------------------------------------------------------------------------
// GET /bff/kpi/get-graph
// ---------------------------------------------------------------------------------------------

export const graphTypes = ['TOTAL_ENERGY', 'ACTIVE_USERS'] as const;
export type GraphType = (typeof graphTypes)[number];
export const graphUnits = ['DAYS', 'MONTHS'] as const;
export type GraphUnit = (typeof graphUnits)[number];

/** A yyyy-MM-dd that is a real calendar date (2024-02-30 is refused). */
export const calendarDateSchema = isoDateSchema.check(
  z.refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  }, 'not a calendar date'),
);

const dayNumber = (s: string) => Math.round(Date.parse(`${s}T00:00:00Z`) / 86_400_000);

/**
 * Query of `GET /bff/kpi/get-graph`. The range is inclusive of both days. `locations` is a
 * comma-joined list of location ids; empty means every location of the caller's operators.
 * A location id outside the caller's operators answers 404 LOCATION_NOT_FOUND.
 * `timestamp` is a cache-buster and ignored.
 */
export const graphQuerySchema = z
  .object({
    graphType: z.enum(graphTypes),
    startDate: calendarDateSchema,
    endDate: calendarDateSchema,
    unit: z.enum(graphUnits),
    locations: commaListSchema,
    timestamp: z.optional(z.string()),
  })
  .check(
    z.superRefine((q, ctx) => {
      const days = dayNumber(q.endDate) - dayNumber(q.startDate) + 1;
      if (Number.isNaN(days)) return;
      if (days < 1) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate before startDate' });
      else if (days > MAX_GRAPH_RANGE_DAYS)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: `range longer than ${MAX_GRAPH_RANGE_DAYS} days` });
    }),
  );
export type GraphQuery = z.input<typeof graphQuerySchema>;

export const kpiInformationSchema = z.object({
  /** kWh over the range (KPI_ENERGY_STATUSES, start date in range). */
  totalEnergyCharged: z.number(),
  /** EUR over the range (KPI_ENERGY_STATUSES, start date in range). */
  totalRevenue: z.number(),
  /** Connectors (not removed) of the caller's operators, at the selected locations; not range-bound. */
  totalWallboxLicenses: z.int().check(z.nonnegative()),
  /** Contracts not expired (status not EXPIRED/UNSIGNED_EXPIRED, endDate null or ≥ today), at the selected locations; not range-bound. */
  totalEndUsers: z.int().check(z.nonnegative()),
});
export type KpiInformation = z.infer<typeof kpiInformationSchema>;

export const graphPointSchema = z.object({
  /** yyyy-MM-dd (DAYS) or yyyy-MM (MONTHS); the client formats it (German month names). */
  label: z.string(),
  /** kWh (TOTAL_ENERGY) or distinct end customers with any request in the bucket (ACTIVE_USERS). */
  value: z.number(),
});
export type GraphPoint = z.infer<typeof graphPointSchema>;

/**
 * `data` of `GET /bff/kpi/get-graph`. graphUnits has one point per day / calendar month from
 * startDate to endDate, oldest first, zero buckets included; a MONTHS bucket only counts the days
 * of the month that lie inside the range.
 */
export const graphAnswerSchema = z.object({
  kpiInformation: kpiInformationSchema,
  graphUnits: z.array(graphPointSchema),
});
export type GraphAnswer = z.infer<typeof graphAnswerSchema>;

/** The chart's range choices (spec 1 §9). */
export const chartRanges = ['DAYS_7', 'DAYS_30', 'MONTHS_12'] as const;
export type ChartRange = (typeof chartRanges)[number];

/**
 * Query dates of a chart range ending today (yyyy-MM-dd, Berlin day): 7 and 30 days give 7 / 30
 * daily buckets ending today; 12 months starts on the first of the month eleven months back, so
 * it gives 12 monthly buckets, the last one month-to-date.
 */
export function chartRangeQuery(range: ChartRange, today: string): { startDate: string; endDate: string; unit: GraphUnit } {
  const t = new Date(`${today}T00:00:00Z`);
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  if (range === 'MONTHS_12') {
    const start = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() - 11, 1));
    return { startDate: iso(start), endDate: today, unit: 'MONTHS' };
  }
  const days = range === 'DAYS_7' ? 7 : 30;
  const start = new Date(t.getTime() - (days - 1) * 86_400_000);
  return { startDate: iso(start), endDate: today, unit: 'DAYS' };
}

// ---------------------------------------------------------------------------------------------
// GET /booking-service/bookings/get-charging-history
// ---------------------------------------------------------------------------------------------

/** End customer id as the cockpit search sends it: digits with dashes (e.g. 123-45678-901), max 13. */
export const endCustomerIdSchema = z.string().check(z.trim(), z.maxLength(13), z.regex(/^\d+(-\d+)*$/, 'digits with dashes'));

/**
 * Keyset paging of the charging history: the sort key of the last row of the page before
 * (`historyCursor(row)`: its start instant and transaction id). With `after` the server reads the
 * rows that follow that row from the index instead of walking `page * size` rows first, so a deep
 * page costs what the first does; `page` then only names the page. Without it (a reload on page 5,
 * a jump) the offset is used.
 */
export const historyCursorSchema = z
  .string()
  .check(z.maxLength(80), z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?Z\|[^|]{1,22}$/, 'cursor'));
export const historyCursor = (row: Pick<ChargingRequestRow, 'startDate' | 'transactionId'>) => `${row.startDate}|${row.transactionId}`;
export function parseHistoryCursor(cursor: string): { startDate: string; transactionId: string } {
  const bar = cursor.indexOf('|');
  return { startDate: cursor.slice(0, bar), transactionId: cursor.slice(bar + 1) };
}

/**
 * Query of the charging history. All filters are optional and combine with AND:
 * transactionId (exact), endCustomerId (exact), contractKey (user page), connectorId (station
 * page), startDate/endDate (Berlin days, inclusive, on the request's start), filters (comma list
 * of chargingHistoryFilters; empty = all statuses). A contractKey or connectorId outside the
 * caller's operators answers 404. Order: startDate desc, then transactionId desc. `after`: see
 * historyCursorSchema.
 * `chargingRequestHistory` (station page flag) is accepted and ignored.
 */
export const chargingHistoryQuerySchema = z
  .object({
    transactionId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(22))),
    endCustomerId: z.optional(endCustomerIdSchema),
    contractKey: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    connectorId: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    startDate: z.optional(calendarDateSchema),
    endDate: z.optional(calendarDateSchema),
    filters: z.pipe(commaListSchema, z.array(z.enum(chargingHistoryFilters))),
    chargingRequestHistory: z.optional(z.string()),
    timestamp: z.optional(z.string()),
    ...pageQuerySchema.shape,
    size: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1000)), 10),
    after: z.optional(historyCursorSchema),
  })
  .check(
    z.superRefine((q, ctx) => {
      if (q.startDate && q.endDate && q.endDate < q.startDate)
        ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate before startDate' });
    }),
  );
export type ChargingHistoryQuery = z.input<typeof chargingHistoryQuerySchema>;

export const chargingRequestRowSchema = z.object({
  transactionId: z.string(),
  endCustomerId: z.nullable(z.string()),
  customerFullName: z.nullable(z.string()),
  parkingLot: z.nullable(z.string()),
  locationAddress: z.object({
    careOf: z.nullable(z.string()),
    street: z.string(),
    zipCode: z.string(),
    city: z.string(),
  }),
  authType: z.string(),
  rfidTag: z.nullable(z.string()),
  rfidSerialId: z.nullable(z.string()),
  status: z.enum(chargingRequestStatuses),
  /** ISO 8601 instants. */
  startDate: z.string(),
  endDate: z.nullable(z.string()),
  lastUpdateTimestamp: z.string(),
  /** kWh. */
  energyCharged: z.number(),
  /** EUR. */
  sessionCost: z.number(),
  chargingRequestStatusMapping: chargingRequestStatusMappingSchema,
  /** Extras for the station/user pages and links. */
  locationId: z.string(),
  locationName: z.string(),
  connectorId: z.string(),
  cpoId: z.string(),
});
export type ChargingRequestRow = z.infer<typeof chargingRequestRowSchema>;

/** `data` of the charging history: `{ totalNumberOfRecords, response }`. */
export const chargingHistoryAnswerSchema = paged(chargingRequestRowSchema);
export type ChargingHistoryAnswer = z.infer<typeof chargingHistoryAnswerSchema>;

// ---------------------------------------------------------------------------------------------
// PUT /bff/charging-requests/clean (admin only)
// ---------------------------------------------------------------------------------------------

/** minutesThreshold: a whole number of minutes above 0 (a numeric string is accepted too). */
export const cleanChargingRequestsBodySchema = z.object({
  minutesThreshold: z.pipe(
    z.transform((v: unknown) => (typeof v === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v)),
    z.int().check(z.positive(), z.lte(10_000_000)),
  ),
});
export type CleanChargingRequestsBody = z.infer<typeof cleanChargingRequestsBodySchema>;

/** `data` of the clean call: how many requests it closed. */
export const cleanChargingRequestsAnswerSchema = z.object({ changed: z.int().check(z.nonnegative()) });
export type CleanChargingRequestsAnswer = z.infer<typeof cleanChargingRequestsAnswerSchema>;
