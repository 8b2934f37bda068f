import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useForm } from './use-form';
import { required } from './validation';

const rules = {
  a: [required],
  cross: { b: (v: { a: string; b: string }) => (v.a === v.b ? null : { id: 'validation.passwordMismatch' as const }) },
};

describe('useForm', () => {
  it('hides errors until a field is left or a submit is tried, but isValid is live', () => {
    const { result } = renderHook(() => useForm({ a: '', b: '' }, rules));
    expect(result.current.field('a').error).toBeNull();
    expect(result.current.isValid).toBe(false);
    act(() => {
      result.current.trySubmit();
    });
    expect(result.current.field('a').error?.id).toBe('validation.required');
  });

  it('applies cross-field rules', () => {
    const { result } = renderHook(() => useForm({ a: 'x', b: 'y' }, rules));
    act(() => result.current.field('b').onBlur());
    expect(result.current.field('b').error?.id).toBe('validation.passwordMismatch');
    act(() => result.current.field('b').onChange('x'));
    expect(result.current.isValid).toBe(true);
  });
});
