import * as z from 'zod/mini';

/** `/config.json`: runtime settings of the PWA, so one build serves any deployment. */
export const runtimeConfigSchema = z.object({
  services: z.object({
    userService: z.string(),
    bff: z.string(),
    contractManagement: z.string(),
    bookingService: z.string(),
  }),
  csvSeparator: z.string().check(z.minLength(1), z.maxLength(1)),
  redoSepaIntervalMinutes: z.int().check(z.positive()),
  version: z.string(),
  /** Footer links (spec 1 §1): each operator company has its own legal pages. */
  links: z._default(z.object({ imprint: z.string(), privacy: z.string(), contact: z.string() }), {
    imprint: '',
    privacy: '',
    contact: '/support',
  }),
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
