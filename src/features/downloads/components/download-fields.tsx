import { useMemo, useState } from 'react';
import type { Key } from 'react-aria-components/Select';
import { useT } from '../../../i18n/i18n-context';
import { DateRangeField } from '../../../ui/date-range-field';
import { defaultRange, fromWire, toWire, validateDateRange } from '../../../ui/date-range';
import { MultiSelect } from '../../../ui/multi-select';
import { ALL_LOCATIONS } from '../api/download-search';

/** A tab's range as sent: the URL's dates, or the default last 7 days when it holds none. */
export function resolveRange(from: string, to: string): { startDate: string; endDate: string } {
  if (from && to) return { startDate: from, endDate: to };
  const d = defaultRange();
  return { startDate: toWire(d.start), endDate: toWire(d.end) };
}

/**
 * Start and end date with the spec's rules (spec 3 §5), written to the URL as they change; the
 * tab's buttons read `valid`. A range from the URL is checked as well, not only typed ones.
 */
export function useRangeField(from: string, to: string, onChange: (from: string, to: string) => void, labels = 'downloads') {
  const t = useT();
  const initial = resolveRange(from, to);
  const [valid, setValid] = useState(
    () => validateDateRange({ start: fromWire(initial.startDate), end: fromWire(initial.endDate) }).isValid,
  );
  const field = (
    <DateRangeField
      defaultValue={{ start: initial.startDate, end: initial.endDate }}
      startLabel={t(`${labels}.startDate`)}
      endLabel={t(`${labels}.endDate`)}
      onChange={(range) => {
        setValid(range.isValid);
        onChange(range.start, range.end);
      }}
      className="gap-3 sm:flex-nowrap"
    />
  );
  return { field, valid, ...initial };
}

/**
 * A location multi-select with 'all' and a count chip (spec 3 §2). With `allAsWord`, choosing
 * every location keeps 'all' (the URL and the request say 'all', which takes in locations added
 * later); otherwise the ids are kept.
 */
export function LocationPicker({
  options,
  value,
  onChange,
  allAsWord,
  isDisabled,
}: {
  options: ReadonlyArray<{ id: string; label: string }>;
  value: readonly string[];
  onChange: (next: string[]) => void;
  allAsWord: boolean;
  isDisabled?: boolean;
}) {
  const t = useT();
  const selected = useMemo(() => (value.includes(ALL_LOCATIONS) ? options.map((o) => o.id) : [...value]), [value, options]);
  const change = (next: Key[]) => {
    const ids = next.map(String).sort();
    onChange(allAsWord && options.length > 0 && ids.length === options.length ? [ALL_LOCATIONS] : ids);
  };
  return (
    <MultiSelect
      label={t('downloads.locations')}
      items={options}
      value={selected}
      onChange={change}
      showAll
      isRequired
      isDisabled={isDisabled}
      placeholder={t('downloads.chooseLocations')}
      className="w-full sm:w-[320px]"
    />
  );
}

/** The locations chosen, as a request names them; none when the URL's ids are all gone. */
export function chosenLocations(value: readonly string[], options: ReadonlyArray<{ id: string }>): string[] {
  if (value.includes(ALL_LOCATIONS)) return options.length ? [ALL_LOCATIONS] : [];
  const known = new Set(options.map((o) => o.id));
  return value.filter((id) => known.has(id));
}
