import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { TextArea } from './text-area';
import { TextField } from './text-field';

afterEach(cleanup);

describe('TextField', () => {
  it('labels the input, marks it required and links the error text', async () => {
    await renderWithI18n(<TextField label="E-Mail" type="email" isRequired errorMessage="Bitte füllen Sie das Feld aus" />);
    const input = screen.getByLabelText(/E-Mail/) as HTMLInputElement;
    expect(input.type).toBe('email');
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const error = screen.getByText('Bitte füllen Sie das Feld aus');
    expect(input.getAttribute('aria-describedby')?.split(' ')).toContain(error.id);
    expect(error.closest('[aria-live]')).toBeTruthy();
  });

  it('links its description and error, and names the input by its label only', async () => {
    await renderWithI18n(
      <TextField label="Passwort" type="password" isRequired description="Mindestens 8 Zeichen" errorMessage="Zu kurz" />,
    );
    const input = screen.getByLabelText('Passwort*') as HTMLInputElement;
    const described = input.getAttribute('aria-describedby')!.split(' ');
    expect(described).toEqual([screen.getByText('Mindestens 8 Zeichen').id, screen.getByText('Zu kurz').id]);
    expect(input.required).toBe(false);
  });

  it('is valid without an error message and reports changes', async () => {
    const onChange = vi.fn();
    await renderWithI18n(<TextField label="Stadt" maxLength={5} onChange={onChange} />);
    const input = screen.getByLabelText('Stadt') as HTMLInputElement;
    expect(input.getAttribute('aria-invalid')).toBeNull();
    expect(input.maxLength).toBe(5);
    fireEvent.change(input, { target: { value: 'Köln' } });
    expect(onChange).toHaveBeenCalledWith('Köln');
  });

  it("type 'number' gives a numeric keyboard on a text input", async () => {
    await renderWithI18n(<TextField label="PLZ" type="number" />);
    const input = screen.getByLabelText('PLZ') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.inputMode).toBe('numeric');
  });

  it("keeps its own inputMode with type 'number': amounts get the keyboard with the decimal comma", async () => {
    await renderWithI18n(<TextField label="Grundgebühr" type="number" inputMode="decimal" />);
    const input = screen.getByLabelText('Grundgebühr') as HTMLInputElement;
    expect(input.type).toBe('text');
    expect(input.inputMode).toBe('decimal');
  });
});

describe('TextArea', () => {
  it('clamps rows to 12–20', async () => {
    await renderWithI18n(
      <>
        <TextArea label="Nachricht" rows={5} />
        <TextArea label="Lang" rows={40} />
      </>,
    );
    expect(screen.getByLabelText('Nachricht').getAttribute('rows')).toBe('12');
    expect(screen.getByLabelText('Lang').getAttribute('rows')).toBe('20');
  });
});
