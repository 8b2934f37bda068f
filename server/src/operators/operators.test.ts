import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, paged } from '../../../contract/common';
import { operatorDetailSchema, operatorListRowSchema } from '../../../contract/operators';
import { createHarness, type Harness } from '../test/harness';

let h: Harness;
let tokens: Record<'admin' | 'operator' | 'partner', string>;
beforeAll(async () => {
  h = await createHarness();
  tokens = {
    admin: (await h.login('admin')).access_token,
    operator: (await h.login('operator')).access_token,
    partner: (await h.login('partner')).access_token,
  };
});
afterAll(() => h?.close());

const listSchema = envelope(paged(operatorListRowSchema));
const ids = async (token: string) => {
  const res = await h.request('GET', '/bff/cpos?page=0&size=10000', { token });
  expect(res.status).toBe(200);
  return listSchema.parse(res.body).data.response.map((r) => r.cpoId);
};

describe('GET /bff/cpos', () => {
  it('scopes the list: operator sees its one, partner its customer’s several, admin all', async () => {
    const all = await ids(tokens.admin);
    expect(all).toHaveLength(h.seed.counts.operators);
    const own = await ids(tokens.operator);
    expect(own).toHaveLength(1);
    const partner = await ids(tokens.partner);
    expect(partner.length).toBeGreaterThan(1);
    expect(partner).not.toContain(own[0]);
    expect(all).toEqual(expect.arrayContaining([...own, ...partner]));
  });

  it('counts locations and end customers per operator, and pages', async () => {
    const res = await h.request('GET', '/bff/cpos?page=0&size=10000', { token: tokens.admin });
    const { data } = listSchema.parse(res.body);
    expect(data.totalNumberOfRecords).toBe(h.seed.counts.operators);
    expect(data.response.reduce((s, r) => s + r.nrOfLocations, 0)).toBe(h.seed.counts.locations);
    expect(data.response.reduce((s, r) => s + r.nrOfEndCustomers, 0)).toBe(h.seed.counts.contracts);

    const page1 = listSchema.parse((await h.request('GET', '/bff/cpos?page=1&size=2', { token: tokens.admin })).body);
    expect(page1.data.totalNumberOfRecords).toBe(h.seed.counts.operators);
    expect(page1.data.response.map((r) => r.cpoId)).toEqual(data.response.slice(2, 4).map((r) => r.cpoId));
  });

  it('validates paging (size above 10000 is refused)', async () => {
    const res = await h.request('GET', '/bff/cpos?page=0&size=10001', { token: tokens.admin });
    expect(res.status).toBe(400);
    expect(res.body.errorCodeResponse).toBe('VALIDATION_ERROR');
  });
});

describe('GET /bff/cpos/{id}/operator-details', () => {
  it('answers the operator entity for an operator in scope', async () => {
    const [own] = await ids(tokens.operator);
    const res = await h.request('GET', `/bff/cpos/${own}/operator-details`, { token: tokens.operator });
    expect(res.status).toBe(200);
    const detail = operatorDetailSchema.parse(res.body.data);
    expect(detail.cpoId).toBe(own);
    expect(detail.cpoAddress.countryCode).toBe('DE');
    expect(detail.billingTemplateHeader.lineOne).toBeTruthy();
    expect(detail.erpValues.length).toBeGreaterThan(0);
  });

  it('answers 404 (never data, never 403) for a foreign or unknown operator', async () => {
    const partnerOps = await ids(tokens.partner);
    const foreign = await h.request('GET', `/bff/cpos/${partnerOps[0]}/operator-details`, { token: tokens.operator });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({
      errorCodeResponse: 'OPERATOR_NOT_FOUND',
      errorMessage: expect.any(String),
      errorDetail: { cpoId: partnerOps[0] },
    });
    const unknown = await h.request('GET', '/bff/cpos/NOPE/operator-details', { token: tokens.admin });
    expect(unknown.status).toBe(404);
    // The spec's code for an operator that is not there (the same as the location routes answer).
    expect(unknown.body).toMatchObject({ errorCodeResponse: 'OPERATOR_NOT_FOUND', errorDetail: { cpoId: 'NOPE' } });
    const [own] = await ids(tokens.operator);
    const asPartner = await h.request('GET', `/bff/cpos/${own}/operator-details`, { token: tokens.partner });
    expect(asPartner.status).toBe(404);
    const asAdmin = await h.request('GET', `/bff/cpos/${own}/operator-details`, { token: tokens.admin });
    expect(asAdmin.status).toBe(200);
  });
});

describe('GET /bff/dropdown-configuration', () => {
  it('lists the requested mapping types', async () => {
    const res = await h.request('GET', '/bff/dropdown-configuration?mappingTypes=USER_TYPE,BILLING_STATUS', {
      token: tokens.operator,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      { type: 'USER_TYPE', listValues: ['REGULAR', 'LOCAL_ADMIN', 'GLOBAL_ADMIN', 'AD_HOC'] },
      { type: 'BILLING_STATUS', listValues: expect.arrayContaining(['PAID', 'UNPAID', 'DISPUTED']) },
    ]);
    const bad = await h.request('GET', '/bff/dropdown-configuration?mappingTypes=NOPE', { token: tokens.operator });
    expect(bad.status).toBe(400);
  });
});
