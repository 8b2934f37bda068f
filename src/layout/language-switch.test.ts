import { describe, expect, it } from 'vitest';
import { isLanguageSwitchHost } from './language-switch';

describe('language switch visibility', () => {
  it.each(['localhost', '127.0.0.1', 'cockpit.dev.example.com', 'dev.cockpit.de', 'cockpit-int.example.com', 'int.example.de'])(
    'is shown on %s',
    (host) => expect(isLanguageSwitchHost(host)).toBe(true),
  );
  it.each(['cockpit.example.com', 'developer.example.com', 'internal.example.de', 'app.cockpit.de'])('is hidden on %s', (host) =>
    expect(isLanguageSwitchHost(host)).toBe(false),
  );
});
