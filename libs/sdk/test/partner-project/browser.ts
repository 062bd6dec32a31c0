/**
 * The SDK in a partner's web page: the package test bundles this file with the installed tarball
 * for the browser and runs `partnerJourney` in Chromium, on the gateway's origin.
 */
import { createClient, SDK_VERSION, tokenPair, verifyWebhook } from '@coin/sdk';

interface SignedWebhook {
  secret: string;
  headers: Record<string, string>;
  body: string;
}

async function partnerJourney(email: string, webhook: SignedWebhook) {
  const coin = createClient({ baseUrl: location.origin });
  const password = 'correct horse battery staple';
  await coin.registerPartner({
    applicationName: 'Browser journey',
    redirectUrl: 'https://partner.example/r',
    webRedirectUrl: 'https://partner.example/w',
    mobileRedirectUrl: 'partner://cb',
    email,
    partnerName: 'Browser Ltd',
    password,
    confirmPassword: password,
    userDetailsUrl: 'https://partner.example/users',
  });
  coin.useCredentials(tokenPair((await coin.login({ email, password })).tokens));
  for (const name of ['alpha', 'beta', 'gamma'])
    await coin.createRule({ name, coinValue: '1', maxNumberOfParticipant: '10' });
  const rules: string[] = [];
  for await (const rule of coin.iterate('listRules', { limit: 2 })) rules.push(rule.name);
  const event = await verifyWebhook(webhook.secret, webhook.headers, webhook.body);
  return { sdk: SDK_VERSION, me: (await coin.getMe()).email, rules: rules.sort(), event: event.event };
}

Object.assign(globalThis, { partnerJourney });
