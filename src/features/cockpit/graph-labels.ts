import type { GraphUnit } from '../../../contract/cockpit';
import { EMPTY, formatMonth } from '../../i18n/format';
import type { Locale } from '../../i18n/locale';

/**
 * Labels of the graph buckets. The wire sends yyyy-MM-dd (DAYS) or yyyy-MM (MONTHS); the screen
 * shows dd.MM. / month names on the axis and full dates / 'März 2025' in the tooltip and table.
 */
export type LabelStyle = 'axis-short' | 'axis' | 'full';

const pad = (n: number) => String(n).padStart(2, '0');

/** 'yyyy-MM' or 'yyyy-MM-dd' → parts, or null when the label is not such a date. */
export function parseGraphLabel(label: string): { year: number; month: number; day: number | null } | null {
  const m = /^(\d{4})-(\d{2})(?:-(\d{2}))?$/.exec(label.trim());
  if (!m) return null;
  const month = Number(m[2]);
  if (month < 1 || month > 12) return null;
  return { year: Number(m[1]), month, day: m[3] ? Number(m[3]) : null };
}

export function formatGraphLabel(label: string, unit: GraphUnit, locale: Locale, style: LabelStyle = 'full'): string {
  const parts = parseGraphLabel(label);
  if (!parts) return label || EMPTY;
  if (unit === 'MONTHS' || parts.day === null) {
    if (style === 'full') return `${formatMonth(parts.month - 1, locale, 'long')} ${parts.year}`;
    return formatMonth(parts.month - 1, locale, style === 'axis' ? 'long' : 'short');
  }
  const dayMonth = `${pad(parts.day)}.${pad(parts.month)}.`;
  return style === 'full' ? `${dayMonth}${parts.year}` : dayMonth;
}
