import { describe, expect, it } from 'vitest';
import { dateTime, day, decimal, fixedDecimal, germanCsv, safeCell } from './german-csv';

const text = async (s: ReadableStream<Uint8Array>) => Buffer.from(await new Response(s).arrayBuffer());
async function* of<T>(items: T[]) {
  yield* items;
}

describe('the German-Excel CSV writer', () => {
  it('writes BOM, ; and CRLF, quotes what must be quoted, and keeps formula cells as text', async () => {
    const bytes = await text(
      germanCsv(
        ['A', 'B', 'C'],
        of([
          ['=HYPERLINK("http://x")', '@SUM(1)', '+49 89'],
          ['-1', '\tTab', '\rCR'],
          ['a;b', 'Jürgen Weiß', decimal('-12.5', 2)],
          [null, undefined, day('2026-03-04')],
        ]),
      ),
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines).toEqual([
      'A;B;C',
      `"'=HYPERLINK(""http://x"")";'@SUM(1);'+49 89`,
      `'-1;'\tTab;"'\rCR"`,
      '"a;b";Jürgen Weiß;-12,50',
      ';;04.03.2026',
      '',
    ]);
  });

  it('formats numbers exactly, half up, with a comma', () => {
    expect(fixedDecimal('12.345', 2)).toBe('12.35');
    expect(fixedDecimal('-12.345', 2)).toBe('-12.35');
    expect(fixedDecimal('0.004', 2)).toBe('0.00');
    expect(fixedDecimal('-0.004', 2)).toBe('0.00');
    expect(fixedDecimal('7', 3)).toBe('7.000');
    expect(fixedDecimal('19', 0)).toBe('19');
    expect(decimal('1234567.895', 2).formatted).toBe('1234567,90');
    expect(decimal(2.5, 1).formatted).toBe('2,5');
    expect(() => fixedDecimal('1e5', 2)).toThrow();
    expect(safeCell('Müller')).toBe('Müller');
  });

  it('writes Berlin wall time and calendar days as dd.MM.yyyy', () => {
    expect(dateTime('2026-03-03T07:15:00Z').formatted).toBe('03.03.2026 08:15');
    expect(dateTime('2026-07-01T22:30:00Z').formatted).toBe('02.07.2026 00:30');
    expect(dateTime(null).formatted).toBe('');
    expect(day('2026-12-31').formatted).toBe('31.12.2026');
  });

  it('pulls no further record once the reader cancels', async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled++;
        yield [String(pulled).padEnd(1000, 'x')];
      }
    }
    const reader = germanCsv(['A'], endless()).getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 20));
    const after = pulled;
    await new Promise((r) => setTimeout(r, 50));
    expect(pulled).toBe(after);
    expect(pulled).toBeLessThan(1000);
  });
});

describe('keyset pages', () => {
  it('reads the next page only when the file asks for it, and none after the reader went away', async () => {
    const { keysetPages, mapAsync } = await import('./handlers');
    let reads = 0;
    const next = async (after: number) => {
      reads++;
      return [after + 1, after + 2];
    };
    const reader = germanCsv(
      ['n'],
      mapAsync(
        keysetPages([1, 2], 2, (last: number) => last, next),
        (n) => [String(n).padEnd(20000, 'x')],
      ),
    ).getReader();
    await reader.read();
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 20));
    const after = reads;
    await new Promise((r) => setTimeout(r, 50));
    expect(reads).toBe(after);
    expect(reads).toBeLessThan(10);
  });
});
