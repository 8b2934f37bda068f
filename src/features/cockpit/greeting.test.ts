import { describe, expect, it } from 'vitest';
import { greetingKey } from './greeting';

describe('greeting', () => {
  it('follows the time of day', () => {
    expect(greetingKey(7)).toBe('cockpit.greetingMorning');
    expect(greetingKey(11)).toBe('cockpit.greetingDay');
    expect(greetingKey(18)).toBe('cockpit.greetingEvening');
    expect(greetingKey(2)).toBe('cockpit.greetingEvening');
  });
});
