import { act, cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { deferredMount } from './deferred-mount';
import { MultiSelect } from './multi-select';
import { Select } from './select';

const items = [
  { id: 'a', label: 'Berlin' },
  { id: 'b', label: 'Köln' },
];
const nextFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 10))));

describe('selects mount after the first paint', () => {
  beforeEach(() => {
    deferredMount.enabled = true;
  });
  afterEach(() => {
    deferredMount.enabled = false;
    cleanup();
  });

  it('show a hidden twin with the same text first, then the real select', async () => {
    await renderWithI18n(
      <>
        <Select label="Zeilen" items={items} value="b" onChange={() => {}} />
        <MultiSelect label="Standorte" items={items} value={['a', 'b']} onChange={() => {}} />
      </>,
    );
    const twins = screen.getAllByTestId('select-twin');
    expect(twins).toHaveLength(2);
    for (const twin of twins) expect(twin.getAttribute('aria-hidden')).toBe('true');
    expect(twins[0]!.textContent).toContain('Köln');
    expect(twins[1]!.textContent).toContain('Berlin, Köln');
    expect(screen.queryByRole('button')).toBeNull();

    await nextFrame();
    expect(screen.queryAllByTestId('select-twin')).toHaveLength(0);
    expect(screen.getByRole('button', { name: /Zeilen/ }).textContent).toContain('Köln');
    expect(screen.getByRole('button', { name: /Standorte/ }).textContent).toContain('Berlin, Köln');
  });
});
