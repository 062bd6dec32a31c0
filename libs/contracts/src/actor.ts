import { z } from 'zod';
import { guid } from './common.ts';

/**
 * Who made a request: the signed-in member, or the API key. The gateway sets it on every partner
 * request it forwards (never from the partner's body), and changes are recorded in the audit log
 * under it.
 */
export const actorSchema = z
  .object({
    memberId: guid.nullable(),
    email: z.string().max(254).nullable(),
    apiKeyId: guid.nullable(),
  })
  .meta({ id: 'AuditActor', description: 'Who made a change: a member, or an API key.' });
export type Actor = z.infer<typeof actorSchema>;
