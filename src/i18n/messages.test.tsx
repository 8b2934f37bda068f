import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useLocale, useT } from './i18n-context';
import { I18nProvider } from './i18n-provider';
import { getLoadedMessages, loadMessages, loadSignedInMessages } from './messages';

afterEach(cleanup);
beforeEach(() => localStorage.clear());

function Probe() {
  const t = useT();
  const { locale, setLocale } = useLocale();
  return (
    <div>
      <p data-testid="signed-out">{t('auth.login')}</p>
      <p data-testid="signed-in">{t('ui.table.pageOf', { page: 2, pages: 5 })}</p>
      <button onClick={() => setLocale(locale === 'de' ? 'en' : 'de')}>switch</button>
    </div>
  );
}

// One test: the parts a language needs are module state (the signed-in part, once asked for, stays).
describe('message parts at run time', () => {
  it('load the signed-out part first, add the signed-in part on demand, and switch languages with both', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const signedOut = await loadMessages('de');
    expect(signedOut['auth.login']).toBe('Anmelden');
    expect(signedOut['ui.table.pageOf']).toBeUndefined();

    render(
      <I18nProvider>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('signed-out').textContent).toBe('Anmelden');
    expect(screen.getByTestId('signed-in').textContent).toBe('ui.table.pageOf');

    // What the signed-in layout does before its first render; the provider picks the part up at once.
    await act(async () => {
      await loadSignedInMessages('de');
    });
    expect(screen.getByTestId('signed-in').textContent).toBe('Seite 2 von 5');
    expect(getLoadedMessages('de')?.['auth.login']).toBe('Anmelden');

    // Another language from now on brings both parts.
    await act(async () => {
      fireEvent.click(screen.getByText('switch'));
    });
    await waitFor(() => expect(screen.getByTestId('signed-in').textContent).toBe('Page 2 of 5'));
    expect(screen.getByTestId('signed-out').textContent).toBe(getLoadedMessages('en')?.['auth.login']);
    warn.mockRestore();
  });
});
