import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyDialog, useDialogOpener } from './lazy-dialog';

afterEach(cleanup);

function Probe({ isOpen, onClose, label }: { isOpen: boolean; onClose: () => void; label: string }) {
  // State of its own: survives closing, starts afresh under a new key.
  const [presses, setPresses] = useState(0);
  return (
    <div data-testid="probe" data-open={String(isOpen)}>
      {label} {presses}
      <button onClick={() => setPresses((n) => n + 1)}>mehr</button>
      <button onClick={onClose}>zu</button>
    </div>
  );
}

function Page({ LazyProbe, keyed }: { LazyProbe: ReturnType<typeof lazyDialog<Parameters<typeof Probe>[0]>>; keyed?: boolean }) {
  const opener = useDialogOpener();
  return (
    <>
      <button onClick={opener.open}>auf</button>
      <LazyProbe key={keyed ? opener.opening : undefined} opener={opener} label="Assistent" fallback={<p>lädt</p>} />
    </>
  );
}

const click = async (name: string) => {
  await act(async () => {
    fireEvent.click(screen.getByRole('button', { name }));
  });
};

describe('lazyDialog', () => {
  it('loads its chunk on the first opening only, and stays mounted once closed', async () => {
    const load = vi.fn(async () => Probe);
    const LazyProbe = lazyDialog(load);
    render(<Page LazyProbe={LazyProbe} />);
    expect(load).not.toHaveBeenCalled();
    expect(screen.queryByTestId('probe')).toBeNull();
    await click('auf');
    expect(load).toHaveBeenCalledTimes(1);
    expect(await screen.findByTestId('probe')).toBeTruthy();
    expect(screen.getByTestId('probe').dataset.open).toBe('true');
    await click('mehr');
    await click('zu');
    expect(screen.getByTestId('probe').dataset.open).toBe('false');
    expect(screen.getByTestId('probe').textContent).toContain('Assistent 1');
    await click('auf');
    expect(screen.getByTestId('probe').textContent).toContain('Assistent 1');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('starts afresh on every opening when keyed by the opening', async () => {
    render(<Page LazyProbe={lazyDialog(async () => Probe)} keyed />);
    await click('auf');
    await screen.findByTestId('probe');
    await click('mehr');
    await click('zu');
    await click('auf');
    expect(screen.getByTestId('probe').textContent).toContain('Assistent 0');
  });

  it('fetches the chunk ahead on preload, and a failed preload stays quiet', async () => {
    const load = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(Probe);
    const LazyProbe = lazyDialog(load);
    LazyProbe.preload();
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => {});
  });
});
