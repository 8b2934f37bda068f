import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { FileTrigger } from 'react-aria-components/FileTrigger';
import { Button, Link } from './button';
import { NavigationProvider } from './navigation';
import { CloseIcon } from './icons';

afterEach(cleanup);

describe('Button', () => {
  it('presses', async () => {
    const onPress = vi.fn();
    await renderWithI18n(<Button onPress={onPress}>Speichern</Button>);
    fireEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(onPress).toHaveBeenCalledTimes(1);
  });

  it('ignores presses while pending but keeps its name', async () => {
    const onPress = vi.fn();
    await renderWithI18n(
      <Button isPending onPress={onPress}>
        Speichern
      </Button>,
    );
    const button = screen.getByRole('button', { name: /Speichern/ });
    expect(button.hasAttribute('data-pending')).toBe(true);
    fireEvent.click(button);
    expect(onPress).not.toHaveBeenCalled();
  });

  it('icon-only buttons are named by aria-label', async () => {
    await renderWithI18n(
      <Button iconOnly aria-label="Schließen" variant="ghost">
        <CloseIcon />
      </Button>,
    );
    expect(screen.getByRole('button', { name: 'Schließen' })).toBeTruthy();
  });

  it('does not press when disabled', async () => {
    const onPress = vi.fn();
    await renderWithI18n(
      <Button isDisabled onPress={onPress} variant="danger">
        Löschen
      </Button>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Löschen' }));
    expect(onPress).not.toHaveBeenCalled();
  });
});

describe('Button on native elements (issue 11: no react-aria on the first route)', () => {
  it('keeps its name while pending and announces that it is busy in a status beside it', async () => {
    const { rerender } = await renderWithI18n(<Button isPending={false}>Anmelden</Button>);
    const status = screen.getByRole('status');
    expect(status.textContent).toBe('');
    rerender(<Button isPending>Anmelden</Button>);
    const button = screen.getByRole('button', { name: 'Anmelden' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.contains(status)).toBe(false);
    expect(screen.getByRole('status').textContent).toBe('Laden…');
  });

  it('does not submit its form again while pending', async () => {
    const onSubmit = vi.fn((e: Event) => e.preventDefault());
    await renderWithI18n(
      <form onSubmit={(e) => onSubmit(e.nativeEvent)}>
        <Button type="submit" isPending>
          Senden
        </Button>
      </form>,
    );
    const button = screen.getByRole('button', { name: 'Senden' }) as HTMLButtonElement;
    expect(button.type).toBe('button');
    fireEvent.click(button);
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("takes a react-aria trigger's press (FileTrigger opens the file picker)", async () => {
    const picked = vi.fn();
    await renderWithI18n(
      <FileTrigger onSelect={picked}>
        <Button variant="secondary">Datei wählen</Button>
      </FileTrigger>,
    );
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    const click = vi.spyOn(input, 'click');
    fireEvent.click(screen.getByRole('button', { name: 'Datei wählen' }));
    expect(click).toHaveBeenCalledTimes(1);
  });
});

describe('Link', () => {
  it('navigates through the router on a plain click and leaves modified clicks to the browser', async () => {
    const navigate = vi.fn();
    await renderWithI18n(
      <NavigationProvider navigate={navigate}>
        <Link href="/forgot-password?x=1">Passwort vergessen?</Link>
      </NavigationProvider>,
    );
    const link = screen.getByRole('link', { name: 'Passwort vergessen?' });
    expect(link.getAttribute('href')).toBe('/forgot-password?x=1');
    fireEvent.click(link, { button: 0 });
    expect(navigate).toHaveBeenCalledWith('/forgot-password?x=1');
    fireEvent.click(link, { button: 0, ctrlKey: true });
    fireEvent.click(link, { button: 1 });
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('keeps its press to itself, as react-aria links did (a table row around it does not toggle)', async () => {
    const row = vi.fn();
    await renderWithI18n(
      <NavigationProvider navigate={() => {}}>
        <div onClick={row} onPointerDown={row} onKeyDown={row}>
          <Link href="/stationen/1">1</Link>
        </div>
      </NavigationProvider>,
    );
    const link = screen.getByRole('link', { name: '1' });
    fireEvent.pointerDown(link);
    fireEvent.keyDown(link, { key: 'Enter' });
    fireEvent.click(link, { button: 0 });
    expect(row).not.toHaveBeenCalled();
  });
});
