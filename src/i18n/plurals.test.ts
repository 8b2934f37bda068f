import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import { createTranslator } from './i18n-provider';
import { flattenMessages } from './messages';

const tDe = createTranslator('de', flattenMessages(de)).t;
const tEn = createTranslator('en', flattenMessages(en)).t;

describe('counts read as sentences (ICU plurals)', () => {
  it('station creation: one station, one charge point', () => {
    expect(tDe('stations.create.confirmConnectors', { stations: 1, connectors: 1 })).toMatch(
      /^Es wird 1 Ladestation mit insgesamt 1 Ladepunkt angelegt\./,
    );
    expect(tDe('stations.create.confirmConnectors', { stations: 2, connectors: 4 })).toMatch(
      /^Es werden 2 Ladestationen mit insgesamt 4 Ladepunkten angelegt\./,
    );
    expect(tEn('stations.create.confirmConnectors', { stations: 1, connectors: 2 })).toMatch(
      /^1 charging station with 2 charge points in total/,
    );
  });

  it('the outbox and the chart summary', () => {
    expect(tDe('outbox.buttonLabel', { count: 1 })).toBe('Ausgang, 1 Änderung ausstehend');
    expect(tDe('outbox.buttonLabel', { count: 3 })).toBe('Ausgang, 3 Änderungen ausstehend');
    expect(tEn('cockpit.chart.summary', { count: 1, first: 'a', last: 'a', max: '1', maxLabel: 'a' })).toMatch(/^1 value from/);
    expect(tDe('cockpit.chart.summary', { count: 7, first: 'a', last: 'b', max: '1', maxLabel: 'a' })).toMatch(/^7 Werte von/);
  });

  it('every message with a count in it uses a plural form', () => {
    for (const messages of [flattenMessages(de), flattenMessages(en)]) {
      const bare = Object.entries(messages).filter(([, text]) => /\{count\}\s+\p{L}/u.test(String(text)));
      // '{count} ausgewählt' has no noun to inflect.
      expect(bare.map(([id]) => id).filter((id) => id !== 'ui.multiSelect.selectedCount')).toEqual([]);
    }
  });
});
