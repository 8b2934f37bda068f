import { describe, expect, it } from 'vitest';
import { fetchedAt } from './data-age-note';

describe('fetchedAt', () => {
  it('shows the time alone for today and the date with it before', () => {
    const now = new Date(2026, 10, 22, 15, 30).getTime();
    expect(fetchedAt(new Date(2026, 10, 22, 9, 5).getTime(), now)).toBe('09:05');
    expect(fetchedAt(new Date(2026, 10, 21, 23, 59).getTime(), now)).toBe('21.11.2026 23:59');
  });
});
