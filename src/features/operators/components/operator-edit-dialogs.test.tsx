import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { createStore } from 'idb-keyval';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { OperatorDetail } from '../../../../contract/operators';
import { renderWithI18n } from '../../../i18n/test-utils';
import { Outbox } from '../../../offline/outbox';
import { OutboxContext } from '../../../offline/outbox-react';
import type { OperatorEdit } from '../api/operator-writes';
import { OperatorEditDialog } from './operator-edit-dialogs';

afterEach(cleanup);

const operator: OperatorDetail = {
  cpoId: 'CPO7',
  cpoName: 'Hafen GmbH',
  cpoAddress: { street: 'Kai 2', careOf: null, zipCode: '20459', city: 'Hamburg', countryCode: 'DE' },
  customerId: 'K1',
  customerType: 'Operator',
  createManualEndCustomerId: false,
  contactPersonDetails: {
    contactPersonName: 'Max',
    contactPersonPosition: 'CFO',
    contactPersonPhone: '040',
    contactPersonEmail: 'max@x.de',
  },
  billingType: 'BANK',
  isChargingHistoryIncluded: true,
  cpoPaymentDetails: {
    cpoPaymentPreference: ['BANK_TRANSFER'],
    cpoIban: 'DE89370400440532013000',
    cpoBankName: 'Commerzbank',
    cpoBic: 'COBADEFF',
    moneyCollectionGapInDays: 14,
  },
  billingTemplateHeader: { lineOne: 'Hafen GmbH' },
  billingTemplateFooter: {},
  taxNumber: '30/123/45678',
  erpValues: [],
  version: 3,
};

async function open(edit: OperatorEdit, initialValues?: Record<string, string>, takenPrefixes?: string[]) {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
  const outbox = new Outbox({ store: createStore(`operator-edit-${Math.random()}`, 'writes'), locks: null, send: vi.fn() });
  const onQueued = vi.fn();
  await renderWithI18n(
    <OutboxContext.Provider value={outbox}>
      <OperatorEditDialog
        edit={edit}
        operator={operator}
        isOpen
        initialValues={initialValues}
        takenPrefixes={takenPrefixes}
        onClose={() => {}}
        onQueued={onQueued}
      />
    </OutboxContext.Provider>,
  );
  return { outbox, onQueued };
}

const press = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

describe('OperatorEditDialog', () => {
  it('queues an address edit made offline with the version the user saw', async () => {
    const { outbox, onQueued } = await open('address');
    const name = screen.getByRole('textbox', { name: /^Firmenname/ });
    expect((name as HTMLInputElement).value).toBe('Hafen GmbH');
    await act(async () => {
      fireEvent.change(name, { target: { value: 'Hafen AG' } });
    });
    await press('Weiter');
    expect(screen.getByText('Hafen AG')).toBeTruthy();
    await press('Speichern');
    await vi.waitFor(() => expect(onQueued).toHaveBeenCalledWith('queued', expect.any(String)));
    const [write] = outbox.getSnapshot();
    expect(write).toMatchObject({ scope: 'operator:CPO7', kind: 'operator.address', state: 'pending' });
    expect(write!.request.body).toMatchObject({ workFlow: 'AddressInfo', cpoName: 'Hafen AG', version: 3 });
    outbox.dispose();
  });

  it('opens again with what the user entered in a refused write', async () => {
    const { outbox } = await open('address', { cpoName: 'Mein Entwurf' });
    expect((screen.getByRole('textbox', { name: /^Firmenname/ }) as HTMLInputElement).value).toBe('Mein Entwurf');
    expect((screen.getByRole('textbox', { name: /^Ort/ }) as HTMLInputElement).value).toBe('Hamburg');
    outbox.dispose();
  });

  it('starts the invoice template from the operator, without the billing choice once it has payment details', async () => {
    const { outbox } = await open('billing');
    expect((screen.getByRole('checkbox', { name: 'Überweisung' }) as HTMLInputElement).checked).toBe(true);
    expect((screen.getByRole('textbox', { name: /^IBAN/ }) as HTMLInputElement).value).toBe('DE89370400440532013000');
    expect(screen.queryByRole('radio', { name: 'Ohne Rechnungsinformationen' })).toBeNull();
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(false);
    outbox.dispose();
  });

  it('holds the invoice template without VAT id and tax number (§ 14 UStG), and a prefix another operator has, at their fields', async () => {
    const { outbox } = await open('billing', { taxNumber: '', billNumberPrefix: 'SWS-' }, ['sws-']);
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      for (const name of [/^USt-IdNr/, /^Steuernummer/, /^Präfix der Rechnungsnummer/])
        fireEvent.blur(screen.getByRole('textbox', { name }));
    });
    expect(screen.getAllByText(/Bitte geben Sie die USt-IdNr. oder die Steuernummer an/)).toHaveLength(2);
    expect(screen.getByText('Dieses Präfix verwendet bereits ein anderer Betreiber. Bitte wählen Sie ein anderes.')).toBeTruthy();
    outbox.dispose();
  });

  it("offers the operator's method first, and Stripe's, and requires client number and net ledger account", async () => {
    const { outbox } = await open('erp');
    expect(screen.getByRole('button', { name: /Überweisung.*Zahlungsart/ })).toBeTruthy();
    // Only Stripe's methods post on a clearing account.
    expect(screen.queryByRole('textbox', { name: /^Geldtransitkonto/ })).toBeNull();
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      fireEvent.change(screen.getByRole('textbox', { name: /^Mandantennummer/ }), { target: { value: '4711' } });
      fireEvent.change(screen.getByRole('textbox', { name: /^Sachkonto netto/ }), { target: { value: '8400' } });
    });
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(false);
    outbox.dispose();
  });

  it("asks a Stripe method's clearing account (Geldtransitkonto, issue 35) and sends it", async () => {
    const { outbox, onQueued } = await open('erp', { paymentMethod: 'STRIPE_CARD' });
    expect(screen.getByRole('button', { name: /Stripe Karte.*Zahlungsart/ })).toBeTruthy();
    await act(async () => {
      fireEvent.change(screen.getByRole('textbox', { name: /^Mandantennummer/ }), { target: { value: '4711' } });
      fireEvent.change(screen.getByRole('textbox', { name: /^Sachkonto netto/ }), { target: { value: '8400' } });
      fireEvent.change(screen.getByRole('textbox', { name: /^Geldtransitkonto/ }), { target: { value: '13' } });
    });
    expect((screen.getByRole('button', { name: 'Weiter' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => {
      fireEvent.change(screen.getByRole('textbox', { name: /^Geldtransitkonto/ }), { target: { value: '1360' } });
    });
    await press('Weiter');
    expect(screen.getByText('1360')).toBeTruthy();
    await press('Speichern');
    await vi.waitFor(() => expect(onQueued).toHaveBeenCalledWith('queued', expect.any(String)));
    expect(outbox.getSnapshot()[0]!.request.body).toMatchObject({ paymentMethod: 'STRIPE_CARD', clearingAccountNr: '1360' });
    outbox.dispose();
  });
});
