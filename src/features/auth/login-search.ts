import * as z from 'zod';
import { redirectTarget } from '../../auth/redirect-target';

/** Only a path of this app that is not itself a public page (see redirectTarget). */
const localPath = z
  .string()
  .optional()
  .catch(undefined)
  .transform((v) => redirectTarget(v));

export const loginSearchSchema = z.object({ redirect: localPath });
export const forgotSearchSchema = z.object({ token: z.string().min(10).max(200).optional().catch(undefined) });
