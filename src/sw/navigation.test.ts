import { describe, expect, it } from 'vitest';
import { isShellNavigation } from './navigation';

describe('navigation fallback', () => {
  it('answers app routes with the shell', () => {
    for (const path of [
      '/',
      '/login',
      '/einloggen',
      '/cockpit',
      '/standorte/L-1/',
      '/stripesepa/configure/success/cs_test_123',
      '/stripesepa/reconfigure/success/cs_test_123',
      '/bffx',
      '/config.json.bak',
      '/unknown/path',
    ]) {
      expect(isShellNavigation(path), path).toBe(true);
    }
  });

  it('leaves the services and the runtime config to the network', () => {
    for (const path of [
      '/user-service',
      '/user-service/login',
      '/bff/bills/1/pdf',
      '/contract-management/contracts/1/pdf',
      '/booking-service/bookings/export',
      '/config.json',
      '/zahlung/testmodus',
    ]) {
      expect(isShellNavigation(path), path).toBe(false);
    }
  });
});
