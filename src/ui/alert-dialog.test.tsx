import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { AlertDialog } from './alert-dialog';
import { Dialog } from './dialog';

afterEach(cleanup);

describe('AlertDialog', () => {
  it('is an alertdialog with the caller title, body and an OK button that closes', async () => {
    const onClose = vi.fn();
    await renderWithI18n(
      <AlertDialog isOpen variant="error" title="Fehler" onClose={onClose}>
        Etwas ist schiefgelaufen.
      </AlertDialog>,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Fehler' });
    expect(dialog.textContent).toContain('Etwas ist schiefgelaufen.');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    });
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('falls back to a generic title per variant', async () => {
    await renderWithI18n(<AlertDialog isOpen variant="success" onClose={() => {}} />, { locale: 'en' });
    expect(screen.getByRole('alertdialog', { name: 'Success' })).toBeTruthy();
  });

  it('renders nothing when closed', async () => {
    await renderWithI18n(<AlertDialog isOpen={false} variant="warning" onClose={() => {}} />);
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });
});

describe('Dialog', () => {
  it('has a labelled dialog, actions and a close button', async () => {
    const onOpenChange = vi.fn();
    await renderWithI18n(
      <Dialog isOpen onOpenChange={onOpenChange} title="Betreiber anlegen" actions={<button>Los</button>}>
        Inhalt
      </Dialog>,
    );
    expect(screen.getByRole('dialog', { name: 'Betreiber anlegen' })).toBeTruthy();
    await act(async () => {
      // react-aria also renders a visually hidden dismiss button for screen readers; press ours.
      const close = screen.getAllByRole('button', { name: 'Schließen' }).find((b) => b.closest('header'));
      fireEvent.click(close!);
    });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('closes on Escape', async () => {
    const onOpenChange = vi.fn();
    await renderWithI18n(
      <Dialog isOpen onOpenChange={onOpenChange} title="T">
        x
      </Dialog>,
    );
    await act(async () => {
      fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape' });
    });
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });
});
