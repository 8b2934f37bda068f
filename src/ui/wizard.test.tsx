import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { Wizard, type WizardStep } from './wizard';

afterEach(cleanup);

interface HarnessProps {
  onSubmit?: () => void | Promise<unknown>;
  onReset?: () => void;
  onNextStep1?: WizardStep['onNext'];
}

/** A 3-step wizard whose first step is valid once a name is typed. */
function Harness({ onSubmit = () => {}, onReset, onNextStep1 }: HarnessProps) {
  const [open, setOpen] = useState(true);
  const [name, setName] = useState('');
  return (
    <>
      <button onClick={() => setOpen(true)}>open</button>
      <Wizard
        isOpen={open}
        onClose={() => setOpen(false)}
        onReset={() => {
          setName('');
          onReset?.();
        }}
        title="Standort anlegen"
        submitLabel="Speichern"
        onSubmit={onSubmit}
        steps={[
          {
            title: 'Objektinformationen',
            isValid: name.trim() !== '',
            onNext: onNextStep1,
            content: (
              <label>
                Name
                <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} />
              </label>
            ),
          },
          { title: 'Ladeinfrastruktur', isValid: true, content: <p>Schritt zwei</p> },
          { title: 'Bestätigung', isValid: true, content: <p>Alles prüfen</p> },
        ]}
      />
    </>
  );
}

const button = (name: string) => screen.getByRole('button', { name });
const isDisabled = (el: HTMLElement) => el.hasAttribute('disabled') || el.getAttribute('aria-disabled') === 'true';

async function press(el: HTMLElement) {
  await act(async () => {
    fireEvent.click(el);
  });
}

describe('Wizard', () => {
  it('shows the title, the step indicator and Cancel on the first step', async () => {
    await renderWithI18n(<Harness />);
    expect(screen.getByRole('dialog', { name: 'Standort anlegen' })).toBeTruthy();
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 1 von 3');
    expect(screen.getByText('Objektinformationen')).toBeTruthy();
    expect(button('Abbrechen')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Zurück' })).toBeNull();
  });

  it('keeps Next disabled until the step is valid', async () => {
    await renderWithI18n(<Harness />);
    expect(isDisabled(button('Weiter'))).toBe(true);
    await press(button('Weiter'));
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 1 von 3');

    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Depot Nord' } });
    expect(isDisabled(button('Weiter'))).toBe(false);
    await press(button('Weiter'));
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 2 von 3');
    expect(screen.getByText('Schritt zwei')).toBeTruthy();
  });

  it('stays on the step when the step handler refuses', async () => {
    const onNext = vi.fn().mockResolvedValue(false);
    await renderWithI18n(<Harness onNextStep1={onNext} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'x' } });
    await press(button('Weiter'));
    expect(onNext).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 1 von 3');
  });

  it('goes back, and offers the caller label on the last step which runs the action', async () => {
    const onSubmit = vi.fn();
    await renderWithI18n(<Harness onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Depot' } });
    await press(button('Weiter'));
    await press(button('Zurück'));
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 1 von 3');
    await press(button('Weiter'));
    await press(button('Weiter'));
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 3 von 3');
    expect(screen.queryByRole('button', { name: 'Weiter' })).toBeNull();
    await press(button('Speichern'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('shows pending on the final button while the action runs', async () => {
    let finish: () => void = () => {};
    const onSubmit = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    await renderWithI18n(<Harness onSubmit={onSubmit} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Depot' } });
    await press(button('Weiter'));
    await press(button('Weiter'));
    await press(button('Speichern'));
    expect(button('Speichern').hasAttribute('data-pending')).toBe(true);
    await press(button('Speichern'));
    expect(onSubmit).toHaveBeenCalledTimes(1);
    await act(async () => finish());
    expect(button('Speichern').hasAttribute('data-pending')).toBe(false);
  });

  it('resets to step 1 and tells the caller when closed', async () => {
    const onReset = vi.fn();
    await renderWithI18n(<Harness onReset={onReset} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Depot' } });
    await press(button('Weiter'));
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 2 von 3');

    await press(button('Schließen'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onReset).toHaveBeenCalledTimes(1);

    await press(screen.getByText('open'));
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Schritt 1 von 3');
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('');
  });

  it('Cancel on the first step closes', async () => {
    const onReset = vi.fn();
    await renderWithI18n(<Harness onReset={onReset} />);
    await press(button('Abbrechen'));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(onReset).toHaveBeenCalledTimes(1);
  });

  it('speaks English in English', async () => {
    await renderWithI18n(<Harness />, { locale: 'en' });
    expect(screen.getByTestId('wizard-step-indicator').textContent).toBe('Step 1 of 3');
    expect(button('Next')).toBeTruthy();
    expect(button('Cancel')).toBeTruthy();
  });
});
