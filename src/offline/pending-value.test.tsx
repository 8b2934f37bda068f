import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { renderWithI18n } from '../i18n/test-utils';
import { Outbox } from './outbox';
import { OutboxContext } from './outbox-react';
import { PendingValue, pendingField } from './pending-value';
import { storedWrite } from './test-writes';
import { registerWriteKind } from './write-kinds';

afterEach(cleanup);

registerWriteKind<{ lot: string }>({
  kind: 'test.lot',
  name: () => 'Lot',
  label: (d) => d.lot,
  refreshes: () => [],
  sets: (d) => ({ parkingLot: d.lot }),
});
registerWriteKind<{ on: boolean }>({ kind: 'test.other', name: () => 'Other', label: () => '', refreshes: () => [] });

const lot = (value: string, patch = {}) =>
  storedWrite({ scope: 'C1', kind: 'test.lot', data: { lot: value }, request: { service: 'bff', path: '/x', method: 'PUT' } }, patch);
const other = storedWrite({ scope: 'C1', kind: 'test.other', data: { on: true }, request: { service: 'bff', path: '/y', method: 'PUT' } });

describe('pending values', () => {
  it('shows the newest value on its way, marked; the server value without open writes', () => {
    expect(pendingField([], 'parkingLot', 'P1')).toEqual({ value: 'P1', state: null });
    expect(pendingField([lot('P2'), lot('P3', { state: 'sending' }), other], 'parkingLot', 'P1')).toEqual({
      value: 'P3',
      state: 'sending',
    });
    expect(pendingField([lot('P2', { state: 'done' })], 'parkingLot', 'P1')).toEqual({ value: 'P1', state: null });
    expect(pendingField([other], 'parkingLot', 'P1')).toEqual({ value: 'P1', state: null });
  });

  it('rolls back visibly when the newest write of the field was refused', () => {
    expect(pendingField([lot('P2', { state: 'failed' })], 'parkingLot', 'P1')).toEqual({ value: 'P1', state: 'refused' });
  });

  it('renders the pending value with its marker, in the words of the language', async () => {
    const outbox = new Outbox({ locks: null, ensureSession: async () => {}, send: () => new Promise(() => {}) });
    const waiting = await outbox.enqueue({
      scope: 'C9',
      kind: 'test.lot',
      data: { lot: 'P7' },
      request: { service: 'bff', path: '/x', method: 'PUT' },
    });
    expect(waiting.state).toBe('pending');
    await renderWithI18n(
      <OutboxContext.Provider value={outbox}>
        <PendingValue scope="C9" field="parkingLot" value="P1" />
      </OutboxContext.Provider>,
    );
    expect(await screen.findByText('P7')).toBeTruthy();
    expect(screen.getByTestId('pending-value').textContent).toBe('wird gesendet');
    outbox.dispose();
  });
});
