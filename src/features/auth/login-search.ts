import { redirectTarget } from '../../auth/redirect-target';
import { optionalText, searchParams } from '../../ui/list-search';

/** `?redirect=`: only a path of this app that is not itself a public page (see redirectTarget). */
export const loginSearch = searchParams({ redirect: (raw) => redirectTarget(typeof raw === 'string' ? raw : undefined) });
/** `?token=` of the password-reset mail. */
export const forgotSearch = searchParams({ token: optionalText(200, 10) });
