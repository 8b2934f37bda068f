import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithI18n } from '../../../i18n/test-utils';
import { useForm } from '../../../ui/use-form';
import { billingRules, emptyBilling, isBillingRequiredMissing, type BillingValues } from '../operator-billing-form';
import { BillingFields } from './operator-fields';

afterEach(cleanup);

let latest: BillingValues | null = null;

function Harness({ offersChoice = true }: { offersChoice?: boolean }) {
  const form = useForm<BillingValues>(emptyBilling(), billingRules);
  latest = form.values;
  return (
    <>
      <BillingFields form={form} offersChoice={offersChoice} />
      <p data-testid="valid">{String(form.isValid && !isBillingRequiredMissing(form.values))}</p>
    </>
  );
}

const textbox = (name: RegExp) => screen.queryByRole('textbox', { name });
const press = async (el: Element) => {
  await act(async () => {
    fireEvent.click(el);
  });
};

describe('BillingFields', () => {
  it('starts with SEPA and asks for its creditor id; bank transfer adds IBAN, bank and BIC', async () => {
    await renderWithI18n(<Harness />);
    expect((screen.getByRole('checkbox', { name: 'SEPA-Lastschrift' }) as HTMLInputElement).checked).toBe(true);
    expect(textbox(/^Gläubiger-ID/)).toBeTruthy();
    expect(textbox(/^IBAN/)).toBeNull();
    await press(screen.getByRole('checkbox', { name: 'Überweisung' }));
    expect(textbox(/^IBAN/)).toBeTruthy();
    expect(textbox(/^Bank$/)).toBeTruthy();
    expect(textbox(/^BIC/)).toBeTruthy();
    await press(screen.getByRole('checkbox', { name: 'SEPA-Lastschrift' }));
    expect(textbox(/^Gläubiger-ID/)).toBeNull();
    expect(latest).toMatchObject({ sepa: 'false', bankTransfer: 'true' });
  });

  it("shows 'billing required' while no payment mode is chosen", async () => {
    await renderWithI18n(<Harness />);
    expect(screen.queryByText(/Abrechnung erforderlich/)).toBeNull();
    await press(screen.getByRole('checkbox', { name: 'SEPA-Lastschrift' }));
    const notice = screen.getByText('Abrechnung erforderlich: Bitte wählen Sie mindestens eine Zahlungsart.');
    expect(notice.className).toContain('text-danger');
    expect(screen.getByTestId('valid').textContent).toBe('false');
  });

  it('grows the header lines to four and removes the last one again, cleared', async () => {
    await renderWithI18n(<Harness />);
    const add = screen.getByRole('button', { name: 'Kopfzeile hinzufügen' });
    expect((screen.getByRole('button', { name: 'Kopfzeile 1 entfernen' }) as HTMLButtonElement).disabled).toBe(true);
    for (let i = 0; i < 3; i++) await press(add);
    expect(textbox(/^Kopfzeile 4/)).toBeTruthy();
    expect((add as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      fireEvent.change(textbox(/^Kopfzeile 4/)!, { target: { value: 'weg damit' } });
    });
    await press(screen.getByRole('button', { name: 'Kopfzeile 4 entfernen' }));
    expect(textbox(/^Kopfzeile 4/)).toBeNull();
    expect(latest).toMatchObject({ headerCount: '3', headerLine4: '' });
    // Each shown header line is required, footers are not: their labels say so.
    expect(textbox(/^Kopfzeile 3/)!.getAttribute('aria-required')).toBe('true');
    expect(textbox(/^Fußzeile 1/)!.getAttribute('aria-required')).toBeNull();
  });

  it("offers 'no billing info', which leaves only the contact person", async () => {
    await renderWithI18n(<Harness />);
    await press(screen.getByRole('radio', { name: 'Ohne Rechnungsinformationen' }));
    expect(screen.queryByRole('checkbox', { name: 'SEPA-Lastschrift' })).toBeNull();
    expect(textbox(/^Kopfzeile 1/)).toBeNull();
    expect(screen.getByText('Ohne Rechnungsinformationen werden nur die Angaben zum Ansprechpartner gespeichert.')).toBeTruthy();
    expect(textbox(/^Name/)).toBeTruthy();
  });

  it('does not offer the choice once the operator has payment details', async () => {
    await renderWithI18n(<Harness offersChoice={false} />);
    expect(screen.queryByRole('radio', { name: 'Ohne Rechnungsinformationen' })).toBeNull();
  });
});
