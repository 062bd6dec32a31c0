import { z } from 'zod';
import { guid } from './common.ts';

/** Coins travel in events as exact decimal text (at most 2 places), never as floats. */
export const decimalText = z.string().regex(/^\d+(\.\d{1,2})?$/);

/** What every event carries: its id (also its `Nats-Msg-Id`) and the partner it belongs to. */
export const eventBase = z.object({ eventId: guid, partnerId: guid });
