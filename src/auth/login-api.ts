import { apiRequest } from '../api/client';
import { ORIGIN_DASHBOARD, tokenPairAnswer } from './token-answers';
import { setTokenPair, whenTokensStored } from './token-store';

// Apart from auth-api.ts: the sign-in page is the first route and needs only this call.

/** Signs in with e-mail and password: the user service's token pair, stored durably. */
export async function login(username: string, password: string): Promise<void> {
  const pair = await apiRequest({
    service: 'userService',
    path: '/login',
    method: 'POST',
    auth: false,
    body: { username: username.trim(), password, origin: ORIGIN_DASHBOARD },
    schema: tokenPairAnswer,
  });
  setTokenPair(pair);
  // Signed in only once the session would survive the browser being killed right now.
  await whenTokensStored();
}
