import { describe, expect, it } from 'vitest';
import { redirectTarget } from './redirect-target';

describe('redirectTarget', () => {
  it('keeps a path of the app with its search', () => {
    expect(redirectTarget('/stationen?cpId=OLI&page=2')).toBe('/stationen?cpId=OLI&page=2');
    expect(redirectTarget('/standorte/L10001')).toBe('/standorte/L10001');
  });

  it('never returns to a sign-in or other public page, so it cannot nest', () => {
    expect(redirectTarget('/login')).toBeUndefined();
    expect(redirectTarget('/login?redirect=%2Flogin%3Fredirect%3D%252Fcockpit')).toBeUndefined();
    expect(redirectTarget('/einloggen/')).toBeUndefined();
    expect(redirectTarget('/passwort-vergessen?token=abc')).toBeUndefined();
    expect(redirectTarget('/stripesepa/configure/x')).toBeUndefined();
    expect(redirectTarget('/')).toBeUndefined();
  });

  it('refuses anything that is not a local path, and very long ones', () => {
    expect(redirectTarget('https://evil.example/cockpit')).toBeUndefined();
    expect(redirectTarget('//evil.example/cockpit')).toBeUndefined();
    expect(redirectTarget('/\\evil.example')).toBeUndefined();
    expect(redirectTarget('cockpit')).toBeUndefined();
    expect(redirectTarget(`/stationen?cpId=${'x'.repeat(3000)}`)).toBeUndefined();
    expect(redirectTarget(undefined)).toBeUndefined();
  });
});
