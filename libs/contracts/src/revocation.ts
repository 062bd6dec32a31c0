/**
 * Where identity and the gateway keep revocations in Redis, shared by every gateway replica: an
 * access token revoked at logout (by its `jti`, until it would have expired), and cutoffs: a session
 * token issued before its partner's or member's cutoff is refused (signing out everywhere, a password
 * changed or reset), and an API key the gateway verified before its partner's key cutoff is checked
 * with identity again (a key revoked).
 */
export function revocationKeys(namespace: string) {
  const base = `coin-revoked:${namespace}`;
  return {
    token: (tokenId: string) => `${base}:token:${tokenId}`,
    sessionsOfPartner: (partnerId: string) => `${base}:sessions:partner:${partnerId}`,
    sessionsOfMember: (memberId: string) => `${base}:sessions:member:${memberId}`,
    keysOfPartner: (partnerId: string) => `${base}:keys:partner:${partnerId}`,
  };
}
