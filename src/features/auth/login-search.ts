import * as z from 'zod';

/** Only same-origin paths are accepted as a return address, never a full URL (open redirect). */
const localPath = z
  .string()
  .regex(/^\/(?!\/)/)
  .optional()
  .catch(undefined);

export const loginSearchSchema = z.object({ redirect: localPath });
export const forgotSearchSchema = z.object({ token: z.string().min(10).max(200).optional().catch(undefined) });
