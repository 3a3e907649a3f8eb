/** The HTTP envelope (ARCHITECTURE.md, Contracts): `{status:"OK", ...}` or `{status:"KO", code, message}`. */
import { z } from 'zod';

export const KoBody = z.object({
  status: z.literal('KO'),
  code: z.number().int(),
  message: z.string(),
  details: z.array(z.object({
    path: z.string(),
    message: z.string(),
    issue: z.object({ code: z.string(), origin: z.string().optional(), minimum: z.number().optional(), maximum: z.number().optional(), format: z.string().optional() }).optional(),
  })).optional(),
});
export type KoBody = z.infer<typeof KoBody>;

export const okBody = <T extends z.ZodRawShape>(shape: T) => z.object({ status: z.literal('OK'), ...shape });
export const OkEmpty = okBody({});
