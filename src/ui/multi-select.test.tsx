import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Key } from 'react-aria-components/Select';
import { renderWithI18n } from '../i18n/test-utils';
import { MultiSelect } from './multi-select';

afterEach(cleanup);

const items = [
  { id: 'a', label: 'Depot Nord' },
  { id: 'b', label: 'Depot Süd' },
  { id: 'c', label: 'Zentrale' },
];

function Harness({ initial = [] as Key[] }) {
  const [value, setValue] = useState<Key[]>(initial);
  return (
    <>
      <MultiSelect label="Standorte" items={items} value={value} onChange={setValue} showAll />
      <output data-testid="value">{value.join(',')}</output>
    </>
  );
}

async function click(el: Element) {
  await act(async () => {
    fireEvent.click(el);
  });
}

describe('MultiSelect', () => {
  it('shows a count chip for the selection', async () => {
    await renderWithI18n(<Harness initial={['a', 'c']} />);
    expect(screen.getByTestId('multi-select-count').textContent).toContain('2');
    expect(screen.getByText('2 ausgewählt')).toBeTruthy();
  });

  it('toggles items and selects or clears all via the "Alle" entry', async () => {
    await renderWithI18n(<Harness />);
    expect(screen.queryByTestId('multi-select-count')).toBeNull();
    await click(screen.getByRole('button', { name: /Standorte/ }));
    await click(screen.getByRole('option', { name: 'Depot Süd' }));
    expect(screen.getByTestId('value').textContent).toBe('b');
    // the popover stays open for further ticks
    await click(screen.getByRole('option', { name: 'Alle' }));
    expect(screen.getByTestId('value').textContent).toBe('a,b,c');
    expect(screen.getByRole('option', { name: 'Alle' }).getAttribute('aria-selected')).toBe('true');
    await click(screen.getByRole('option', { name: 'Alle' }));
    expect(screen.getByTestId('value').textContent).toBe('');
  });
});
