import { COCKPIT_TIME_ZONE, chartRangeQuery, type ChartRange, type GraphType, type GraphUnit } from '../../../contract/cockpit';

/** What the user chose above the chart (kept in the cockpit's URL: api/cockpit-keys.ts). */
export interface ChartSettings {
  range: ChartRange;
  graphType: GraphType;
  /** Selected location ids; empty means every location of the user's operators. */
  locations: readonly string[];
}

/** The wire query of GET /bff/kpi/get-graph, minus the cache-buster (which must not enter the key). */
export interface GraphParams {
  graphType: GraphType;
  startDate: string;
  endDate: string;
  unit: GraphUnit;
  /** Sorted, comma-joined ids; '' for all locations (dropped from the request). */
  locations: string;
}

const berlinDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: COCKPIT_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today as yyyy-MM-dd in Berlin: the wire's calendar days are Berlin days, whatever the device says. */
export function berlinToday(now: Date = new Date()): string {
  return berlinDay.format(now);
}

/**
 * Selecting every location is the same question as selecting none (the server then takes all of
 * the user's locations), and sends a short URL whose cache key survives a new location appearing.
 */
export function normalizeLocations(selected: readonly string[], available: readonly string[]): string[] {
  const known = new Set(available);
  const picked = [...new Set(selected)].filter((id) => known.size === 0 || known.has(id));
  if (known.size > 0 && available.every((id) => picked.includes(id))) return [];
  return picked.sort();
}

/** 7 days and 30 days → daily buckets ending today; 12 months → MONTHS from the first of the month 11 months back. */
export function buildGraphParams(settings: ChartSettings, today: string = berlinToday()): GraphParams {
  const { startDate, endDate, unit } = chartRangeQuery(settings.range, today);
  return {
    graphType: settings.graphType,
    startDate,
    endDate,
    unit,
    locations: [...settings.locations].sort().join(','),
  };
}
