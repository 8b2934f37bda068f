import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { Button } from './button';
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
