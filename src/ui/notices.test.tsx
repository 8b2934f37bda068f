import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { clearNotices, NoticeRegion, showNotice } from './notices';

afterEach(() => {
  cleanup();
  act(() => clearNotices());
});

describe('NoticeRegion', () => {
  it('announces notices in a labelled live region and runs the action', async () => {
    const onAction = vi.fn();
    await renderWithI18n(<NoticeRegion />);
    const region = screen.getByRole('region', { name: 'Benachrichtigungen' });
    expect(region.querySelector('[aria-live="polite"]')).toBeTruthy();
    act(() => {
      showNotice({ id: 'update', message: 'Neue Version verfügbar', action: { label: 'Aktualisieren', onAction } });
    });
    expect(screen.getByText('Neue Version verfügbar')).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Aktualisieren' }));
    });
    expect(onAction).toHaveBeenCalledTimes(1);
    expect(screen.queryByText('Neue Version verfügbar')).toBeNull();
  });

  it('replaces a notice with the same id and can be dismissed', async () => {
    await renderWithI18n(<NoticeRegion />);
    act(() => {
      showNotice({ id: 'net', message: 'Offline' });
      showNotice({ id: 'net', message: 'Wieder online', tone: 'success' });
    });
    expect(screen.queryByText('Offline')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Ausblenden' }));
    });
    expect(screen.queryByText('Wieder online')).toBeNull();
  });

  it('auto-dismisses after a timeout, errors use role=alert', async () => {
    vi.useFakeTimers();
    await renderWithI18n(<NoticeRegion />);
    act(() => {
      showNotice({ id: 'e', message: 'Fehlgeschlagen', tone: 'error', timeout: 1000 });
    });
    expect(screen.getByRole('alert').textContent).toContain('Fehlgeschlagen');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.queryByText('Fehlgeschlagen')).toBeNull();
    vi.useRealTimers();
  });
});
