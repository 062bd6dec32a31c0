import { z } from 'zod';
import { email, emptyObject } from './common.ts';
import { type Operation, operationsOf } from './operation.ts';
import { text } from './text.ts';

const { http } = operationsOf('identity');

/**
 * A partner whose password login is refused from its own address (someone else's failed logins
 * there, or its own) asks for an unlock link by e-mail; the link's single-use token clears every
 * login throttle of the e-mail.
 */
export const requestLoginUnlock = http('requestLoginUnlock', 'POST /api/v1/ufel/partners/login/unlock', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'if this e-mail has a partner account, an unlock link has been sent to it',
  summary: 'E-mail a single-use link that lifts the login throttles of an e-mail',
  schemas: { body: z.strictObject({ email }), response: emptyObject },
});

export const unlockLogin = http('unlockLogin', 'GET /api/v1/ufel/partners/login/unlock', {
  auth: 'none',
  rateLimit: 'auth',
  message: 'login unlocked',
  summary: "Follow an unlock link: lift the e-mail's login throttles (single use, 1 hour)",
  schemas: { query: z.object({ token: text({ max: 100 }) }), response: emptyObject },
});

export const loginUnlockOperations: readonly Operation[] = [requestLoginUnlock, unlockLogin];
