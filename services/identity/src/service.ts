import { startService } from '@coin/startup';
import { identityConfig } from './config.ts';
import { consumeAuditEvents } from './consumers/audit.ts';
import type { IdentityDeps } from './deps.ts';
import { startMailRelay } from './domain/mail/mail-relay.ts';
import { createMailTransport } from './domain/mail/transport.ts';
import { configuredKeyEncryption } from './domain/security/key-encryption.ts';
import { prepareSigningKeys } from './domain/security/signing-keys.ts';
import { createTokenSigner } from './domain/security/token-signer.ts';
import { encryptWebhookSecrets } from './domain/security/webhook-secrets.ts';
import { identityMigrations } from './migrations/index.ts';
import { acceptInviteHandler } from './operations/accept-invite.ts';
import { apiKeyHandlers } from './operations/api-keys.ts';
import { listAuditLogHandler } from './operations/audit-log.ts';
import { changePasswordHandler } from './operations/change-password.ts';
import { createAccountUserHandler } from './operations/create-account-user.ts';
import { getMeHandler } from './operations/get-me.ts';
import { getJwksHandler, getPartnerHandler, getPartnerProfileHandler } from './operations/internal.ts';
import { loginHandler } from './operations/login.ts';
import { loginUnlockHandlers } from './operations/login-unlock.ts';
import { logoutHandler } from './operations/logout.ts';
import { passwordResetHandlers } from './operations/password-reset.ts';
import { refreshTokensHandler } from './operations/refresh-tokens.ts';
import { registerPartnerHandler } from './operations/register-partner.ts';
import { resendCodeHandler } from './operations/resend-code.ts';
import { rotateWebhookSecretHandler, setWebhookHandler } from './operations/set-webhook.ts';
import { signOutEverywhereHandler } from './operations/sign-out-everywhere.ts';
import { teamHandlers } from './operations/team.ts';
import { verifyEmailHandler } from './operations/verify-email.ts';

export async function startIdentity(env: NodeJS.ProcessEnv = process.env) {
  return startService(identityConfig(env), {
    description: 'partners, tokens, API keys and account users',
    async start({ config, db, nc, log, background }) {
      const kek = configuredKeyEncryption(config, (message) => log.warn(message));
      const keys = await prepareSigningKeys(db, kek, config.SIGNING_KEY_OVERLAP_SECONDS);
      if (keys.created || keys.reEncrypted)
        log.info(
          keys,
          'signing keys ready (a first key created, or keys encrypted under KEY_ENCRYPTION_KEY)',
        );
      const webhookSecrets = await encryptWebhookSecrets(db, kek, log);
      if (webhookSecrets.written)
        log.info(
          { webhookSecrets },
          'webhook secrets encrypted under KEY_ENCRYPTION_KEY (plain text or the previous key before)',
        );
      const signer = createTokenSigner(db, kek);
      const mail = background(
        startMailRelay({
          db,
          transport: createMailTransport(config, log),
          log: log.child({ component: 'mail-relay' }),
          pollMs: config.MAIL_POLL_MS,
          retryBaseMs: config.MAIL_RETRY_BASE_MS,
          retryMaxMs: config.MAIL_RETRY_MAX_MS,
          maxAttempts: config.MAIL_MAX_ATTEMPTS,
          // connection, greeting and socket timeouts may each run out once
          leaseMs: config.SMTP_TIMEOUT_MS * 3 + 5000,
        }),
        'mail relay',
      );
      const deps: IdentityDeps = { db, nc, config, signer, mail, kek };
      const audit = await consumeAuditEvents({ db, nc, log: log.child({ component: 'audit-consumer' }) });
      for (const consumer of audit) background(consumer, 'audit consumer');
      return [
        registerPartnerHandler(deps),
        loginHandler(deps),
        ...loginUnlockHandlers(deps),
        refreshTokensHandler(deps),
        logoutHandler(deps),
        signOutEverywhereHandler(deps),
        changePasswordHandler(deps),
        ...passwordResetHandlers(deps),
        getMeHandler(deps),
        setWebhookHandler(deps),
        rotateWebhookSecretHandler(deps),
        ...apiKeyHandlers(deps),
        ...teamHandlers(deps),
        acceptInviteHandler(deps),
        listAuditLogHandler(deps),
        getJwksHandler(deps),
        getPartnerHandler(deps),
        getPartnerProfileHandler(deps),
        createAccountUserHandler(deps),
        verifyEmailHandler(deps),
        resendCodeHandler(deps),
      ];
    },
    database: { migrations: identityMigrations },
  });
}
