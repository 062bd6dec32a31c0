import { AppError } from '@coin/errors';

/** Every operation here acts for a partner; the gateway always sends one, other callers must too. */
export function requirePartner(partnerId: string | undefined): string {
  if (!partnerId) throw AppError.unauthorized('a partner is required');
  return partnerId;
}
