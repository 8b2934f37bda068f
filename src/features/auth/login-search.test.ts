import { describe, expect, it } from 'vitest';
import { forgotSearch, loginSearch } from './login-search';

const login = (raw: Record<string, unknown>) => loginSearch(raw as Parameters<typeof loginSearch>[0]);
const forgot = (raw: Record<string, unknown>) => forgotSearch(raw as Parameters<typeof forgotSearch>[0]);

describe('sign-in search params', () => {
  it('keep a return address inside the app that is not itself a public page', () => {
    expect(login({ redirect: '/stationen?page=2' })).toEqual({ redirect: '/stationen?page=2' });
    for (const redirect of ['https://evil.example/', '//evil.example', '/login', '/passwort-vergessen?token=x', '/', 5, ['/cockpit']])
      expect(login({ redirect })).toEqual({ redirect: undefined });
    expect(login({})).toEqual({ redirect: undefined });
  });

  it('a reset token of 10–200 characters, or none', () => {
    expect(forgot({ token: 'abcdefghij' })).toEqual({ token: 'abcdefghij' });
    for (const token of ['short', 'x'.repeat(201), 1234567890, undefined]) expect(forgot({ token })).toEqual({ token: undefined });
  });
});
