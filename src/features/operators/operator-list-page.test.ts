import { describe, expect, it } from 'vitest';
import type { TokenClaims } from '../../../contract/auth';
import { canCreateOperator } from './operator-list-page';

const claims = (customer_type: 'Operator' | 'Partner') => ({ customer_type }) as TokenClaims;

describe('the create-operator button (spec 1 §2, §6)', () => {
  it('shows unless the viewer is an Operator-type user who is not an admin', () => {
    expect(canCreateOperator({ isAdmin: false, claims: claims('Operator') })).toBe(false);
    expect(canCreateOperator({ isAdmin: true, claims: claims('Operator') })).toBe(true);
    expect(canCreateOperator({ isAdmin: false, claims: claims('Partner') })).toBe(true);
  });
});
