import { CalendarDate } from '@internationalized/date';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { DateField, DateRangeField } from './date-range-field';

const REQUIRED = 'Bitte füllen Sie das Feld aus';

afterEach(cleanup);

const today = new CalendarDate(2024, 3, 15);

/** The spinbutton segments of one date field, found by its label. */
function segments(label: string) {
  const field = screen.getByText(label).closest('.flex.flex-col') as HTMLElement;
  return within(field).getAllByRole('spinbutton');
}

const fieldText = (label: string) =>
  segments(label)
    .map((s) => s.textContent)
    .join('.');

async function key(el: HTMLElement, k: string) {
  await act(async () => {
    fireEvent.keyDown(el, { key: k });
    fireEvent.keyUp(el, { key: k });
  });
}

describe('DateRangeField', () => {
  it('defaults to the last 7 days, shown dd.MM.yyyy', async () => {
    await renderWithI18n(<DateRangeField today={today} onChange={() => {}} />);
    expect(fieldText('Startdatum')).toBe('08.03.2024');
    expect(fieldText('Enddatum')).toBe('15.03.2024');
    expect(screen.queryByText(/darf nicht/)).toBeNull();
  });

  it('shows dd.MM.yyyy in English too', async () => {
    await renderWithI18n(<DateRangeField today={today} onChange={() => {}} />, { locale: 'en' });
    expect(fieldText('Start date')).toBe('08.03.2024');
    expect(segments('Start date').map((s) => s.getAttribute('data-type'))).toEqual(['day', 'month', 'year']);
  });

  it('flags an end date after today', async () => {
    await renderWithI18n(<DateRangeField today={today} defaultValue={{ start: '2024-03-01', end: '2024-03-16' }} onChange={() => {}} />);
    expect(screen.getByText('Das Enddatum darf nicht in der Zukunft liegen')).toBeTruthy();
  });

  it('flags an end date before the start', async () => {
    await renderWithI18n(<DateRangeField today={today} defaultValue={{ start: '2024-03-10', end: '2024-03-09' }} onChange={() => {}} />);
    expect(screen.getByText('Das Enddatum darf nicht vor dem Startdatum liegen')).toBeTruthy();
  });

  it('reports wire strings and validity on change', async () => {
    const onChange = vi.fn();
    await renderWithI18n(<DateRangeField today={today} defaultValue={{ start: '2024-03-01', end: '2024-03-16' }} onChange={onChange} />);
    const [endDay] = segments('Enddatum');
    await key(endDay, 'ArrowDown');
    expect(onChange).toHaveBeenLastCalledWith({ start: '2024-03-01', end: '2024-03-15', isValid: true });
    expect(screen.queryByText('Das Enddatum darf nicht in der Zukunft liegen')).toBeNull();
    await key(endDay, 'ArrowUp');
    expect(onChange).toHaveBeenLastCalledWith({ start: '2024-03-01', end: '2024-03-16', isValid: false });
  });

  it('requires both dates', async () => {
    await renderWithI18n(<DateRangeField today={today} defaultValue={{ start: '', end: '' }} onChange={() => {}} />);
    expect(screen.getAllByText('Bitte füllen Sie das Feld aus')).toHaveLength(2);
    expect(segments('Startdatum').every((s) => s.hasAttribute('data-placeholder'))).toBe(true);
  });

  it('calls a partly entered date invalid', async () => {
    const onChange = vi.fn();
    await renderWithI18n(<DateRangeField today={today} defaultValue={{ start: '', end: '2024-03-15' }} onChange={onChange} />);
    const [day] = segments('Startdatum');
    await key(day, 'ArrowUp'); // fills the day only; month and year stay empty
    expect(screen.getByText('Bitte geben Sie ein gültiges Datum ein (TT.MM.JJJJ)')).toBeTruthy();
    expect(onChange).toHaveBeenLastCalledWith({ start: '', end: '2024-03-15', isValid: false });
  });
});

describe('DateField', () => {
  it('shows a date dd.MM.yyyy, allows a day after today, and reports the wire value as it changes', async () => {
    const onChange = vi.fn();
    await renderWithI18n(<DateField label="Einzugsdatum" value="2099-12-30" onChange={onChange} />);
    expect(fieldText('Einzugsdatum')).toBe('30.12.2099');
    expect(screen.queryByRole('alert')).toBeNull();
    const [day] = segments('Einzugsdatum');
    await key(day, 'ArrowUp');
    expect(onChange).toHaveBeenLastCalledWith('2099-12-31');
  });

  it('asks for a date when empty', async () => {
    await renderWithI18n(<DateField label="Einzugsdatum" value="" onChange={() => {}} />);
    expect(screen.getByText(REQUIRED)).toBeTruthy();
  });
});
