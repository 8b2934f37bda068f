import type { TokenClaims, TokenPair } from '../../contract/auth';
import type { ORIGIN_DASHBOARD as CONTRACT_ORIGIN, customerTypes } from '../../contract/common';
import { answerCheck, arrayOf, boolean, number, object, oneOf, optional, string, type Read } from '../api/answer-check';

/*
 * contract/auth.ts's tokenPairSchema and tokenClaimsSchema, read by hand (api/answer-check.ts says
 * why; answer-check.test.ts holds them to the schemas). The types are the contract's.
 */

/** The `origin` that sign-in and refresh send: the contract's, held to it by its type. */
export const ORIGIN_DASHBOARD = 'dashboard' satisfies typeof CONTRACT_ORIGIN;

export const tokenPairAnswer = answerCheck<TokenPair>(
  object({
    access_token: string,
    refresh_token: string,
    expires_in: number,
    refresh_expires_in: number,
    token_type: oneOf(['Bearer']),
  }),
);

const roles = optional(object({ roles: arrayOf(string) }));

export const readTokenClaims: Read<TokenClaims> = object({
  sub: string,
  name: string,
  email: string,
  preferred_username: string,
  role_company: string,
  customer_id: string,
  customer_type: oneOf(['Operator', 'Partner'] as const satisfies typeof customerTypes),
  company_name: string,
  c_o: optional(string, ''),
  street_name: string,
  house_number: optional(string, ''),
  postcode: string,
  city: string,
  country: string,
  cpo_id: arrayOf(string),
  createManualEndCustomerId: boolean,
  resource_access: object({ admin_oli_move: roles, dashboard_oli_move: roles }),
  exp: number,
  iat: optional(number),
});
