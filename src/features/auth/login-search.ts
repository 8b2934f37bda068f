import * as z from 'zod/mini';
import { redirectTarget } from '../../auth/redirect-target';

/** Only a path of this app that is not itself a public page (see redirectTarget). */
const localPath = z.pipe(
  z.catch(z.optional(z.string()), undefined),
  z.transform((v: string | undefined) => redirectTarget(v)),
);

export const loginSearchSchema = z.object({ redirect: localPath });
export const forgotSearchSchema = z.object({ token: z.catch(z.optional(z.string().check(z.minLength(10), z.maxLength(200))), undefined) });
