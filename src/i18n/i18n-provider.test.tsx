import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { useFormat } from './format';
import { useLocale, useT } from './i18n-context';
import { I18nProvider } from './i18n-provider';
import { LANGUAGE_STORAGE_KEY } from './locale';
import { flattenMessages, loadSignedInMessages } from './messages';

afterEach(cleanup);
beforeEach(() => localStorage.clear());

function Probe() {
  const t = useT();
  const { locale, setLocale } = useLocale();
  const f = useFormat();
  return (
    <div>
      <p data-testid="next">{t('ui.common.next')}</p>
      <p data-testid="page">{t('ui.table.pageOf', { page: 2, pages: 5 })}</p>
      <p data-testid="plural">{t('ui.table.rowsSelected', { count: 1 })}</p>
      <p data-testid="missing">{t('ui.does.not.exist')}</p>
      <p data-testid="kwh">{f.kwh(12.5)}</p>
      <button onClick={() => setLocale(locale === 'de' ? 'en' : 'de')}>switch</button>
    </div>
  );
}

describe('locale files', () => {
  it('de and en have exactly the same keys', () => {
    expect(Object.keys(flattenMessages(en)).sort()).toEqual(Object.keys(flattenMessages(de)).sort());
  });

  it('have no empty messages', () => {
    for (const [id, text] of [...Object.entries(flattenMessages(de)), ...Object.entries(flattenMessages(en))]) {
      expect(String(text).trim(), id).not.toBe('');
    }
  });

  it('flattens nested namespaces to dotted ids', () => {
    expect(flattenMessages({ a: { b: 'x', c: { d: 'y' } } })).toEqual({ 'a.b': 'x', 'a.c.d': 'y' });
  });
});

describe('I18nProvider', () => {
  it('defaults to German, formats ICU messages and sets <html lang>', async () => {
    await loadSignedInMessages('de');
    render(
      <I18nProvider>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('next').textContent).toBe('Weiter');
    expect(screen.getByTestId('page').textContent).toBe('Seite 2 von 5');
    expect(screen.getByTestId('plural').textContent).toBe('1 Zeile ausgewählt');
    expect(screen.getByTestId('kwh').textContent).toBe('12,50\u00a0kWh');
    await waitFor(() => expect(document.documentElement.lang).toBe('de'));
  });

  it('shows the fallback until messages arrive', async () => {
    render(
      <I18nProvider initialLocale="en" fallback={<p>booting</p>}>
        <Probe />
      </I18nProvider>,
    );
    // en may already be cached by another test; either way the app ends up translated.
    expect(await screen.findByText('Next')).toBeTruthy();
  });

  it('switches language, persists it and updates <html lang>', async () => {
    await loadSignedInMessages('de');
    render(
      <I18nProvider>
        <Probe />
      </I18nProvider>,
    );
    await act(async () => {
      fireEvent.click(screen.getByText('switch'));
    });
    await waitFor(() => expect(screen.getByTestId('next').textContent).toBe('Next'));
    expect(screen.getByTestId('kwh').textContent).toBe('12.50\u00a0kWh');
    expect(localStorage.getItem(LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(document.documentElement.lang).toBe('en');
  });

  it('starts in the stored language', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'en');
    await loadSignedInMessages('en');
    render(
      <I18nProvider>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('next').textContent).toBe('Next');
  });

  it('ignores an unknown stored language', async () => {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, 'fr');
    await loadSignedInMessages('de');
    render(
      <I18nProvider>
        <Probe />
      </I18nProvider>,
    );
    expect(screen.getByTestId('next').textContent).toBe('Weiter');
  });

  it('renders a missing key as its id and warns once in dev, without crashing', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await loadSignedInMessages('de');
    function Missing() {
      const t = useT();
      return (
        <p data-testid="only-missing">
          {t('ui.only.here')}|{t('ui.only.here')}
        </p>
      );
    }
    const { rerender } = render(
      <I18nProvider initialLocale="de">
        <Missing />
      </I18nProvider>,
    );
    rerender(
      <I18nProvider initialLocale="de">
        <Missing />
      </I18nProvider>,
    );
    expect(screen.getByTestId('only-missing').textContent).toBe('ui.only.here|ui.only.here');
    expect(warn.mock.calls.filter((c) => String(c[0]).includes('ui.only.here'))).toHaveLength(1);
    warn.mockRestore();
  });
});
