/**
 * A partner's first day with the published SDK, as its own backend would write it: the package
 * test (../package.test.ts) type-checks this file in a strict project against the installed
 * tarball, compiles it and runs it on Node 20, 22 and 24 against a stack. `COIN_API_URL` is the
 * API; each step prints one JSON line the test reads.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import {
  type CoinClient,
  createClient,
  isCoinApiError,
  SDK_VERSION,
  tokenPair,
  verifyWebhook,
  type WebhookEvent,
} from '@coin/sdk';

const baseUrl = process.env.COIN_API_URL;
if (!baseUrl) throw new Error('set COIN_API_URL');

function step(name: string, detail: Record<string, unknown>): void {
  console.log(JSON.stringify({ step: name, ...detail }));
}

/** The partner's webhook endpoint: every raw body and its headers, verified by the SDK's helper. */
function webhookEndpoint(secret: () => string) {
  const verified: WebhookEvent[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        verified.push(await verifyWebhook(secret(), req.headers, Buffer.concat(chunks).toString('utf8')));
        res.writeHead(204).end();
      } catch {
        res.writeHead(400).end();
      }
    });
  });
  return { server, verified };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function main(): Promise<void> {
  const coin: CoinClient = createClient({ baseUrl: baseUrl!, appInfo: 'partner-journey/1.0' });
  const email = `journey-${randomUUID()}@partner.example`;
  const password = 'correct horse battery staple';
  const partner = await coin.registerPartner({
    applicationName: 'Journey',
    redirectUrl: 'https://partner.example/r',
    webRedirectUrl: 'https://partner.example/w',
    mobileRedirectUrl: 'partner://cb',
    email,
    partnerName: 'Journey Ltd',
    password,
    confirmPassword: password,
    userDetailsUrl: 'https://partner.example/users',
  });
  step('registered', { partnerId: partner.partnerId, sdk: SDK_VERSION, node: process.version });

  const { tokens } = await coin.login({ email, password });
  coin.useCredentials(tokenPair(tokens));
  step('logged in', { email: (await coin.getMe()).email === email });

  let secret = '';
  const { server, verified } = webhookEndpoint(() => secret);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const hook = await coin.setWebhook({ url: `http://127.0.0.1:${port}/coin`, events: ['USER_ONBOARDING'] });
  // The signing secret is answered once, by the call that creates it.
  if (!hook.secret) throw new Error('a new webhook answers its signing secret');
  secret = hook.secret;
  step('webhook set', { events: hook.events });

  try {
    const userId = randomUUID();
    const { requestId } = await coin.onboardUsers({ users: [{ userId, userData: { fullname: 'Ada' } }] });
    const event = await until('the onboarding webhook', () =>
      verified.find((e) => e.event === 'USER_ONBOARDING'),
    );
    if (event.event !== 'USER_ONBOARDING') throw new Error('unexpected event');
    step('webhook verified', {
      event: event.event,
      sameRequest: event.requestId === requestId,
      failed: event.failed.length,
    });

    const idempotencyKey = `order-${randomUUID()}`;
    const first = await coin.transferToUser({ userId, coins: 25.5 }, { idempotencyKey });
    const replay = await coin.transferToUser({ userId, coins: 25.5 }, { idempotencyKey });
    step('transferred', {
      isExisting: first.isExisting,
      replayIsExisting: replay.isExisting,
      sameEntry: replay.coinsLedger.id === first.coinsLedger.id,
    });
    try {
      await coin.transferToUser({ userId, coins: 1 }, { idempotencyKey });
    } catch (err) {
      if (!isCoinApiError(err, 'transferToUser')) throw err;
      step('key reused', { status: err.status, appErrorCode: err.appErrorCode });
    }

    step('balance', { coins: (await coin.getBalance({ userId })).coins });

    for (const name of ['first purchase', 'birthday', 'referral'])
      await coin.createRule({ name, coinValue: '5', maxNumberOfParticipant: '100' });
    const names: string[] = [];
    for await (const rule of coin.iterate('listRules', { limit: 2 })) names.push(rule.name);
    step('rules', { names: names.sort() });
  } finally {
    server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
