import { describe, expect, it } from 'vitest';
import { yAxisScale } from './y-axis';

describe('yAxisScale', () => {
  it('steps about max/6, rounded to 1, 2, 2.5 or 5 × 10^n', () => {
    expect(yAxisScale(600).step).toBe(100);
    expect(yAxisScale(610).step).toBe(200);
    expect(yAxisScale(1234).step).toBe(250);
    expect(yAxisScale(2800).step).toBe(500);
    expect(yAxisScale(55).step).toBe(10);
  });

  it('ticks run from 0 to the first step at or above max', () => {
    expect(yAxisScale(1234)).toEqual({
      step: 250,
      top: 1250,
      ticks: [0, 250, 500, 750, 1000, 1250],
    });
    expect(yAxisScale(600).ticks).toEqual([0, 100, 200, 300, 400, 500, 600]);
    const { ticks, top } = yAxisScale(987.65);
    expect(top).toBeGreaterThanOrEqual(987.65);
    expect(ticks.length).toBeGreaterThanOrEqual(4);
    expect(ticks.length).toBeLessThanOrEqual(8);
  });

  it('small fractional values give clean decimal ticks without float noise', () => {
    expect(yAxisScale(1.3)).toEqual({
      step: 0.25,
      top: 1.5,
      ticks: [0, 0.25, 0.5, 0.75, 1, 1.25, 1.5],
    });
    expect(yAxisScale(0.7).ticks).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
  });

  it('the top tick is never below max', () => {
    expect(yAxisScale(32, { integer: true })).toEqual({ step: 10, top: 40, ticks: [0, 10, 20, 30, 40] });
    expect(yAxisScale(0.3).top).toBe(0.3);
    for (const max of [1, 7, 32, 99.9, 101, 333, 1234.5, 98765]) {
      const { top, ticks, step } = yAxisScale(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(top - step).toBeLessThan(max);
      expect(ticks.length).toBeLessThanOrEqual(8);
    }
  });

  it('counts keep whole steps', () => {
    expect(yAxisScale(3, { integer: true })).toEqual({
      step: 1,
      top: 3,
      ticks: [0, 1, 2, 3],
    });
    expect(yAxisScale(14, { integer: true }).step).toBe(3);
    expect(yAxisScale(14, { integer: true }).ticks).toEqual([0, 3, 6, 9, 12, 15]);
  });

  it('no data still gives an axis', () => {
    expect(yAxisScale(0, { integer: true })).toEqual({
      step: 1,
      top: 6,
      ticks: [0, 1, 2, 3, 4, 5, 6],
    });
    expect(yAxisScale(0).ticks).toEqual([0, 0.25, 0.5, 0.75, 1]);
    expect(yAxisScale(Number.NaN).top).toBe(1);
  });
});
