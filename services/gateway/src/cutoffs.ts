import type { HttpBinding } from '@coin/contracts';
import type { Principal } from './principal.ts';
import type { CutoffKind } from './revocations.ts';

/** Which cutoffs an operation's success writes (the contract's `cutoff`), from its caller and answer. */
export function cutoffsOf(
  cutoff: NonNullable<HttpBinding['cutoff']>,
  caller: Principal | undefined,
  params: unknown,
  answer: Uint8Array,
): [CutoffKind, string][] {
  if (cutoff === 'answer') {
    const { memberId } = JSON.parse(Buffer.from(answer).toString()) as { memberId?: string };
    return memberId ? [['sessionsOfMember', memberId]] : [];
  }
  if (!caller) return [];
  if (cutoff === 'keys') return [['keysOfPartner', caller.partnerId]];
  if (cutoff === 'caller') return caller.memberId ? [['sessionsOfMember', caller.memberId]] : [];
  if (cutoff === 'member') {
    const id = (params as { id?: string } | undefined)?.id;
    return id ? [['sessionsOfMember', id]] : [];
  }
  const { apiKeysRevoked } = JSON.parse(Buffer.from(answer).toString()) as { apiKeysRevoked?: number };
  const keysRevoked = (apiKeysRevoked ?? 0) > 0;
  return [
    ['sessionsOfPartner', caller.partnerId],
    ...(keysRevoked ? [['keysOfPartner', caller.partnerId] as [CutoffKind, string]] : []),
  ];
}
