import { describe, expect, it } from 'vitest';
import { tokenClaimsSchema, tokenPairSchema } from '../../contract/auth';
import { defaultRuntimeConfig as contractDefaultConfig, runtimeConfigSchema } from '../../contract/config';
import { errorBodySchema } from '../../contract/errors';
import { answerCheck, type AnswerCheck } from './answer-check';
import { defaultRuntimeConfig, runtimeConfigAnswer } from './config';
import { errorBodyAnswer } from './errors';
import { readTokenClaims, tokenPairAnswer } from '../auth/token-answers';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const wrongValues: unknown[] = [undefined, null, 0, 1.5, -3, 'x', '', true, [], ['x'], {}, { a: 1 }];

/**
 * The valid sample and, for every value in it (nested ones too), the sample with that value
 * removed or replaced by a value of every other kind; plus extra keys and no object at all.
 */
function variants(sample: Json): unknown[] {
  const out: unknown[] = [sample, { ...(sample as object), extra: 'ignored' }, ...wrongValues];
  const walk = (value: Json, replace: (next: unknown) => unknown) => {
    if (Array.isArray(value)) {
      value.forEach((item, i) => {
        for (const wrong of wrongValues) out.push(replace(value.map((v, j) => (j === i ? wrong : v))));
        walk(item, (next) => replace(value.map((v, j) => (j === i ? next : v))));
      });
    } else if (value && typeof value === 'object') {
      for (const key of Object.keys(value)) {
        const { [key]: removed, ...rest } = value;
        out.push(replace(rest));
        for (const wrong of wrongValues) out.push(replace({ ...value, [key]: wrong }));
        walk(removed!, (next) => replace({ ...value, [key]: next }));
      }
    }
  };
  walk(sample, (next) => next);
  return out;
}

/** The hand-written check accepts what the schema accepts, and gives what it gives. */
function expectSameAsSchema(check: AnswerCheck<unknown>, schema: AnswerCheck<unknown>, samples: Json[]) {
  let checked = 0;
  for (const sample of samples) {
    for (const value of variants(sample)) {
      const mine = check.safeParse(value);
      const theirs = schema.safeParse(value);
      expect({ value, success: mine.success }).toEqual({ value, success: theirs.success });
      if (mine.success && theirs.success) expect(mine.data).toEqual(theirs.data);
      checked++;
    }
  }
  expect(checked).toBeGreaterThan(samples.length * 20);
}

const claims: Json = {
  sub: 'u1',
  name: 'Ada Administrator',
  email: 'ada@example.com',
  preferred_username: 'ada@example.com',
  role_company: 'admin',
  customer_id: 'K1',
  customer_type: 'Operator',
  company_name: 'Oli',
  c_o: 'c/o',
  street_name: 'Weg',
  house_number: '1',
  postcode: '01067',
  city: 'Dresden',
  country: 'DE',
  cpo_id: ['C1', 'C2'],
  createManualEndCustomerId: false,
  resource_access: { admin_oli_move: { roles: ['oli_move_admin'] }, dashboard_oli_move: { roles: [] } },
  exp: 1_900_000_000,
  iat: 1_800_000_000,
};

describe('hand-written answer checks hold to the contract schemas', () => {
  it('token pair', () => {
    expectSameAsSchema(tokenPairAnswer, tokenPairSchema, [
      { access_token: 'a', refresh_token: 'r', expires_in: 300, refresh_expires_in: 1800, token_type: 'Bearer' },
    ]);
  });

  it('token claims', () => {
    const { c_o: _c, house_number: _h, iat: _i, ...required } = claims as Record<string, Json>;
    expectSameAsSchema(answerCheck(readTokenClaims), tokenClaimsSchema, [claims, { ...required, resource_access: {} }]);
  });

  it('error body', () => {
    expectSameAsSchema(errorBodyAnswer, errorBodySchema, [
      { errorCodeResponse: 'VALIDATION_ERROR', errorMessage: 'bad', errorDetail: { x: 1 }, issues: [{ path: 'a.b', message: 'required' }] },
      { errorCodeResponse: 'NOT_FOUND' },
    ]);
  });

  it('runtime config, and its default', () => {
    const { links: _links, ...withoutLinks } = contractDefaultConfig;
    expectSameAsSchema(runtimeConfigAnswer, runtimeConfigSchema, [
      contractDefaultConfig as unknown as Json,
      { ...withoutLinks, csvSeparator: ',', redoSepaIntervalMinutes: 1 },
    ]);
    expect(runtimeConfigAnswer.safeParse({ ...contractDefaultConfig, csvSeparator: ';;' }).success).toBe(false);
    expect(runtimeConfigAnswer.safeParse({ ...contractDefaultConfig, redoSepaIntervalMinutes: 0 }).success).toBe(false);
    expect(defaultRuntimeConfig).toEqual(contractDefaultConfig);
  });

  it('says where an answer broke', () => {
    const result = errorBodyAnswer.safeParse({ errorCodeResponse: 'X', issues: [{ path: 'a', message: 1 }] });
    expect(result).toEqual({ success: false, error: { issues: [{ path: ['issues', 0, 'message'], message: 'expected string' }] } });
  });
});
