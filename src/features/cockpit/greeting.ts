/** Which greeting fits the hour of the user's day. */
export function greetingKey(hour: number): 'cockpit.greetingMorning' | 'cockpit.greetingDay' | 'cockpit.greetingEvening' {
  if (hour >= 4 && hour < 11) return 'cockpit.greetingMorning';
  if (hour >= 11 && hour < 18) return 'cockpit.greetingDay';
  return 'cockpit.greetingEvening';
}
