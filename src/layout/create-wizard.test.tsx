import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, NetworkError } from '../api/errors';
import { renderWithI18n } from '../i18n/test-utils';
import { CreateWizard, type FailureMessage } from './create-wizard';

afterEach(cleanup);

interface HarnessProps {
  send: () => Promise<{ id: string }>;
  failure?: (error: unknown) => FailureMessage | undefined;
}

/** A one-step wizard around `send`; the page shows whether the wizard is open and what was typed. */
function Harness({ send, failure }: HarnessProps) {
  const [open, setOpen] = useState(true);
  const [name, setName] = useState('');
  return (
    <>
      <p data-testid="open">{String(open)}</p>
      <CreateWizard<{ id: string }>
        isOpen={open}
        onClose={() => setOpen(false)}
        onReset={() => setName('')}
        title="Anlegen"
        submitLabel="Speichern"
        send={send}
        isSending={false}
        successTitle="Angelegt"
        successBody={(answer) => <p data-testid="created">{`${name} hat die Nummer ${answer.id}`}</p>}
        failure={failure}
        steps={[
          { title: 'Name', isValid: true, content: <input aria-label="Name" value={name} onChange={(e) => setName(e.target.value)} /> },
        ]}
      />
    </>
  );
}

const save = async () => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
  });
};
const alert = () => screen.getByRole('alertdialog');

describe('CreateWizard', () => {
  it('closes (and clears) on success and shows the success body made from the answer and what was entered', async () => {
    await renderWithI18n(<Harness send={async () => ({ id: 'L42' })} />);
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Depot' } });
    await save();
    expect(screen.getByTestId('open').textContent).toBe('false');
    expect(alert().textContent).toContain('Angelegt');
    expect(screen.getByTestId('created').textContent).toBe('Depot hat die Nummer L42');
  });

  it("says what the area makes of a refusal and stays open to send again; unmapped ones read 'something went wrong'", async () => {
    const refusal = new ApiError({ status: 404, errorCodeResponse: 'OPERATOR_NOT_FOUND' });
    const failure = (error: unknown) =>
      error instanceof ApiError && error.errorCodeResponse === 'OPERATOR_NOT_FOUND' ? 'Betreiber unbekannt' : undefined;
    const send = vi
      .fn()
      .mockRejectedValueOnce(refusal)
      .mockRejectedValueOnce(new ApiError({ status: 500 }));
    await renderWithI18n(<Harness send={send} failure={failure} />);
    await save();
    expect(alert().textContent).toContain('Fehler');
    expect(alert().textContent).toContain('Betreiber unbekannt');
    expect(screen.getByTestId('open').textContent).toBe('true');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    });
    await save();
    expect(alert().textContent).toContain('Etwas ist schiefgelaufen. Bitte versuchen Sie es erneut.');
  });

  it('takes a title of its own for a refusal and keeps the wizard with what was entered (issue 23)', async () => {
    const failure = () => ({ title: 'Fehlgeschlagen', body: <ul data-testid="conflicts" /> });
    await renderWithI18n(<Harness send={() => Promise.reject(new ApiError({ status: 409 }))} failure={failure} />);
    await save();
    expect(alert().textContent).toContain('Fehlgeschlagen');
    expect(screen.getByTestId('conflicts')).toBeTruthy();
    expect(screen.getByTestId('open').textContent).toBe('true');
  });

  it('says offline on a lost connection and keeps the wizard', async () => {
    const failure = vi.fn(() => 'nie');
    await renderWithI18n(<Harness send={() => Promise.reject(new NetworkError('offline'))} failure={failure} />);
    await save();
    expect(alert().textContent).toContain('Sie sind offline.');
    expect(failure).not.toHaveBeenCalled();
    expect(screen.getByTestId('open').textContent).toBe('true');
  });
});
