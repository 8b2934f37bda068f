import { CalendarDate } from '@internationalized/date';
import { render, screen } from '@testing-library/react';
import { DateInput, DatePicker, DateSegment, Group } from 'react-aria-components/DatePicker';
import { describe, expect, it } from 'vitest';
import { FieldErrorText, FieldLabel } from './field';

function Picker({ message }: { message?: string }) {
  return (
    <DatePicker<CalendarDate> value={new CalendarDate(2030, 1, 1)} maxValue={new CalendarDate(2026, 1, 1)} validationBehavior="aria">
      <FieldLabel>Datum</FieldLabel>
      <Group>
        <DateInput>{(segment) => <DateSegment segment={segment} />}</DateInput>
      </Group>
      <FieldErrorText>{message}</FieldErrorText>
    </DatePicker>
  );
}

describe('FieldErrorText', () => {
  it("shows only the form's own message, never react-aria's built-in wording (one message set)", () => {
    const { container, rerender } = render(<Picker />);
    // react-aria finds the date past its maximum itself; its English/own sentence must not show.
    expect(screen.getByRole('group').closest('[data-invalid]')).not.toBeNull();
    expect(container.querySelector('[slot="errorMessage"]')).toBeNull();
    expect(container.textContent).not.toMatch(/2026|must|muss/i);
    rerender(<Picker message="Das Enddatum darf nicht in der Zukunft liegen" />);
    expect(screen.getByText('Das Enddatum darf nicht in der Zukunft liegen')).toBeTruthy();
  });
});
