import { describe, expect, it } from 'vitest';
import { isCurrent, navFor } from './nav-items';

describe('menu by role', () => {
  const all = () => true;
  it('shows customers and RFID only to admins', () => {
    const admin = navFor({ isAdmin: true }, all).administration.map((i) => i.key);
    const other = navFor({ isAdmin: false }, all).administration.map((i) => i.key);
    expect(admin).toEqual(['operators', 'bills', 'customers', 'rfid']);
    expect(other).toEqual(['operators', 'bills']);
  });

  it('hides the entries whose screens are not built', () => {
    const built = new Set(['/cockpit', '/stationen', '/einstellungen', '/support']);
    const nav = navFor({ isAdmin: true }, (href) => built.has(href));
    expect(nav.main.map((i) => i.key)).toEqual(['cockpit', 'stations']);
    expect(nav.administration).toEqual([]);
    expect(nav.after.map((i) => i.key)).toEqual(['settings', 'support']);
  });

  it('marks sub-pages as current', () => {
    expect(isCurrent('/standorte', '/standorte/12')).toBe(true);
    expect(isCurrent('/standorte', '/stationen')).toBe(false);
  });
});
