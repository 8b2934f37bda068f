import { beforeEach, describe, expect, it } from 'vitest';
import { applyTheme, readTheme } from './theme';

describe('theme', () => {
  beforeEach(() => localStorage.clear());

  it('defaults to default and keeps a chosen theme', () => {
    expect(readTheme()).toBe('default');
    applyTheme('indigo');
    expect(readTheme()).toBe('indigo');
    expect(document.documentElement.dataset.theme).toBe('indigo');
  });

  it('falls back to default for an unknown stored name', () => {
    localStorage.setItem('theme', 'neon');
    expect(readTheme()).toBe('default');
  });
});
