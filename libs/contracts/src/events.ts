/**
 * JetStream subjects of the facts services publish (stream EVENTS, `events.<service>.<fact>`).
 * Each event's JSON payload carries `eventId` (also its `Nats-Msg-Id`) and `partnerId`; the
 * payload schemas sit beside each service's operations.
 */
export const EVENT_SUBJECTS = {
  /** One per onboard-users request, when it has been processed: the USER_ONBOARDING webhook's source. */
  onboardingProcessed: 'events.onboarding.requestProcessed',
  /** Users stored by a request, for other services' projections. */
  usersOnboarded: 'events.onboarding.usersOnboarded',
  /** Every completed transfer (ledger entry). */
  transferCompleted: 'events.wallet.transferCompleted',
  /** Every reward paid by rule. */
  ruleRewarded: 'events.rules.rewarded',
} as const;
