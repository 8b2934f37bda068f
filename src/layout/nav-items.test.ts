import { describe, expect, it } from 'vitest';
import { isCurrent, navFor } from './nav-items';

describe('menu by role', () => {
  it('shows customers and RFID only to admins', () => {
    const admin = navFor({ isAdmin: true }).administration.map((i) => i.key);
    const other = navFor({ isAdmin: false }).administration.map((i) => i.key);
    expect(admin).toEqual(['operators', 'bills', 'customers', 'rfid']);
    expect(other).toEqual(['operators', 'bills']);
  });

  it('marks sub-pages as current', () => {
    expect(isCurrent('/standorte', '/standorte/12')).toBe(true);
    expect(isCurrent('/standorte', '/stationen')).toBe(false);
  });
});
