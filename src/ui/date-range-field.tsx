import {
  Button,
  Calendar,
  CalendarCell,
  CalendarGrid,
  DateInput,
  DatePicker,
  DateSegment,
  Group,
  Popover,
} from 'react-aria-components/DatePicker';
import { Dialog, Heading } from 'react-aria-components/Dialog';
import { DateFieldStateContext, type DateValue } from 'react-aria-components/DateField';
import { I18nProvider as AriaI18nProvider } from 'react-aria-components/I18nProvider';
import type { CalendarDate } from '@internationalized/date';
import { useContext, useEffect, useState, type ComponentProps } from 'react';
import { useLocale, useT } from '../i18n/i18n-context';
import { DATE_FIELD_LOCALE } from '../i18n/locale';
import { cx } from './class-names';
import { defaultRange, fromWire, MIN_YEAR, todayLocal, toWire, validateDateRange, type DateRangeInput } from './date-range';
import { FieldErrorText, FieldLabel, inputClassName } from './field';
import { CalendarIcon, ChevronLeftIcon, ChevronRightIcon } from './icons';
import { validationMessage, type ValidationFailure } from './validation';

export interface DateRangeFieldValue {
  /** 'yyyy-MM-dd', or '' when empty. */
  start: string;
  end: string;
  /** False while any rule fails: callers disable their submit/search button on it. */
  isValid: boolean;
}

export interface DateRangeFieldProps {
  /** Initial range as wire strings; defaults to the last 7 days up to today. Remount (key) to reset. */
  defaultValue?: { start: string; end: string };
  onChange: (value: DateRangeFieldValue) => void;
  startLabel?: string;
  endLabel?: string;
  /** Injected for tests; defaults to the device's today. */
  today?: CalendarDate;
  isDisabled?: boolean;
  className?: string;
}

/**
 * Start and end date, typed (dd.MM.yyyy segments) or picked from a calendar, with the spec's rules
 * (src/ui/date-range.ts). Errors are shown under the field they concern and reported via `isValid`.
 */
export function DateRangeField({ defaultValue, onChange, startLabel, endLabel, today, isDisabled, className }: DateRangeFieldProps) {
  const t = useT();
  const { locale } = useLocale();
  const [todayDate] = useState(() => today ?? todayLocal());
  const [range, setRange] = useState<DateRangeInput>(() => {
    if (defaultValue) return { start: fromWire(defaultValue.start), end: fromWire(defaultValue.end) };
    return defaultRange(todayDate);
  });
  const result = validateDateRange(range, todayDate);

  const update = (patch: Partial<DateRangeInput>) => {
    const next = { ...range, ...patch };
    if (
      next.start === range.start &&
      next.end === range.end &&
      Boolean(next.startIncomplete) === Boolean(range.startIncomplete) &&
      Boolean(next.endIncomplete) === Boolean(range.endIncomplete)
    ) {
      return;
    }
    setRange(next);
    onChange({ start: toWire(next.start), end: toWire(next.end), isValid: validateDateRange(next, todayDate).isValid });
  };

  return (
    <AriaI18nProvider locale={DATE_FIELD_LOCALE[locale]}>
      <div className={cx('flex flex-wrap items-start gap-4', className)}>
        <DateBox
          label={startLabel ?? t('ui.dateRange.start')}
          value={range.start}
          maxValue={todayDate}
          isDisabled={isDisabled}
          errorMessage={validationMessage(t, result.start)}
          onChange={(start) => update({ start, startIncomplete: false })}
          onIncompleteChange={(startIncomplete) => update({ startIncomplete })}
        />
        <DateBox
          label={endLabel ?? t('ui.dateRange.end')}
          value={range.end}
          maxValue={todayDate}
          isDisabled={isDisabled}
          errorMessage={validationMessage(t, result.end)}
          onChange={(end) => update({ end, endIncomplete: false })}
          onIncompleteChange={(endIncomplete) => update({ endIncomplete })}
        />
      </div>
    </AriaI18nProvider>
  );
}

export interface DateFieldProps {
  label: string;
  /** 'yyyy-MM-dd', or '' when empty. */
  value: string;
  /** The wire value ('' while empty, incomplete or before MIN_YEAR: callers disable their button on it). */
  onChange: (value: string) => void;
  isDisabled?: boolean;
}

/**
 * One required date with the range's look and rules (typed dd.MM.yyyy or picked from a calendar),
 * any day allowed: a date a bank is to act on lies ahead as often as behind.
 */
export function DateField({ label, value, onChange, isDisabled }: DateFieldProps) {
  const t = useT();
  const { locale } = useLocale();
  const [incomplete, setIncomplete] = useState(false);
  const date = fromWire(value);
  const failure: ValidationFailure | undefined =
    incomplete || (date && date.year < MIN_YEAR) ? { id: 'validation.invalidDate' } : date ? undefined : { id: 'validation.required' };
  return (
    <AriaI18nProvider locale={DATE_FIELD_LOCALE[locale]}>
      <DateBox
        label={label}
        value={date}
        isDisabled={isDisabled}
        errorMessage={validationMessage(t, failure)}
        onChange={(next) => {
          setIncomplete(false);
          onChange(next && next.year >= MIN_YEAR ? toWire(next) : '');
        }}
        onIncompleteChange={(next) => {
          setIncomplete(next);
          if (next) onChange('');
        }}
      />
    </AriaI18nProvider>
  );
}

interface DateBoxProps {
  label: string;
  value: CalendarDate | null;
  maxValue?: CalendarDate;
  isDisabled?: boolean;
  errorMessage?: string;
  onChange: (value: CalendarDate | null) => void;
  onIncompleteChange: (incomplete: boolean) => void;
}

function DateBox({ label, value, maxValue, isDisabled, errorMessage, onChange, onIncompleteChange }: DateBoxProps) {
  return (
    <DatePicker<CalendarDate>
      value={value}
      onChange={(v: DateValue | null) => onChange((v as CalendarDate | null) ?? null)}
      maxValue={maxValue}
      isRequired
      isDisabled={isDisabled}
      isInvalid={Boolean(errorMessage)}
      validationBehavior="aria"
      granularity="day"
      shouldForceLeadingZeros
      className="flex w-full max-w-[260px] flex-col gap-1"
    >
      <FieldLabel isRequired>{label}</FieldLabel>
      <Group className={cx(inputClassName, 'flex items-center gap-0 px-1 pe-0 data-[focus-within]:border-focus')}>
        <DateInput className="flex flex-1 items-center">
          {(segment) => <Segment segment={segment} onIncompleteChange={onIncompleteChange} />}
        </DateInput>
        <Button className="flex size-11 shrink-0 cursor-pointer items-center justify-center rounded-md text-muted outline-none data-[hovered]:text-fg data-[focus-visible]:outline-2 data-[focus-visible]:outline-focus">
          <CalendarIcon />
        </Button>
      </Group>
      <FieldErrorText>{errorMessage}</FieldErrorText>
      <Popover className="rounded-lg border border-border bg-surface p-3 text-fg shadow-lg outline-none">
        <Dialog className="outline-none">
          <Calendar>
            <header className="mb-2 flex items-center justify-between gap-2">
              <Button slot="previous" className={calendarNavClassName}>
                <ChevronLeftIcon />
              </Button>
              <Heading className="text-base font-semibold" />
              <Button slot="next" className={calendarNavClassName}>
                <ChevronRightIcon />
              </Button>
            </header>
            <CalendarGrid className="border-collapse [&_th]:pb-1 [&_th]:text-xs [&_th]:font-medium [&_th]:text-muted">
              {(date) => (
                <CalendarCell
                  date={date}
                  className={cx(
                    'flex size-11 cursor-pointer items-center justify-center rounded-md text-sm outline-none',
                    'data-[hovered]:bg-surface-2 data-[selected]:bg-primary data-[selected]:text-primary-fg',
                    'data-[outside-month]:hidden data-[disabled]:cursor-not-allowed data-[disabled]:text-muted data-[disabled]:opacity-40',
                    'data-[focus-visible]:outline-2 data-[focus-visible]:outline-focus',
                  )}
                />
              )}
            </CalendarGrid>
          </Calendar>
        </Dialog>
      </Popover>
    </DatePicker>
  );
}

const calendarNavClassName =
  'flex size-11 cursor-pointer items-center justify-center rounded-md text-fg outline-none data-[hovered]:bg-surface-2 data-[focus-visible]:outline-2 data-[focus-visible]:outline-focus';

type SegmentData = ComponentProps<typeof DateSegment>['segment'];

/**
 * One editable segment. It also reports whether the field holds a partial date (some segments typed,
 * no complete value): react-aria then reports `null`, which alone cannot tell 'empty' from 'invalid'.
 */
function Segment({ segment, onIncompleteChange }: { segment: SegmentData; onIncompleteChange: (incomplete: boolean) => void }) {
  const state = useContext(DateFieldStateContext);
  const incomplete = Boolean(state && state.value == null && state.segments.some((s) => s.isEditable && !s.isPlaceholder));
  const reporter = segment.type === 'year';
  useEffect(() => {
    if (reporter) onIncompleteChange(incomplete);
    // onIncompleteChange is recreated each render; only a change of the flag matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reporter, incomplete]);
  return (
    <DateSegment
      segment={segment}
      className={cx(
        'rounded tabular-nums outline-none',
        // An editable segment is a 44 px touch target (a finger taps the day, month or year to type it).
        segment.type === 'literal'
          ? 'px-0.5 text-muted'
          : 'inline-flex min-h-11 min-w-11 items-center justify-center focus:bg-primary focus:text-primary-fg',
        'data-[placeholder]:text-muted',
      )}
    />
  );
}
