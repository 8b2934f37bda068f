import * as z from 'zod';

/** `/config.json`: runtime settings of the PWA, so one build serves any deployment. */
export const runtimeConfigSchema = z.object({
  services: z.object({
    userService: z.string(),
    bff: z.string(),
    contractManagement: z.string(),
    bookingService: z.string(),
  }),
  csvSeparator: z.string().min(1).max(1),
  redoSepaIntervalMinutes: z.number().int().positive(),
  version: z.string(),
  /** Footer links (spec 1 §1): each operator company has its own legal pages. */
  links: z
    .object({ imprint: z.string(), privacy: z.string(), contact: z.string() })
    .default({ imprint: '', privacy: '', contact: '/support' }),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

export const defaultRuntimeConfig: RuntimeConfig = {
  services: {
    userService: '/user-service',
    bff: '/bff',
    contractManagement: '/contract-management',
    bookingService: '/booking-service',
  },
  csvSeparator: ';',
  redoSepaIntervalMinutes: 15,
  version: '3.0.0',
  links: { imprint: '', privacy: '', contact: '/support' },
};
