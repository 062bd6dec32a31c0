import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { queryDatabase, type Stack, withDatabase } from '@coin/testing';
import { verifyLedger } from '@coin/wallet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RegisteredPartner, registerAndLogin } from './support/partners.ts';
import { onboardUsers, waitFor } from './support/rewards.ts';
import { stackWith } from './support/stack.ts';
import { TO_USER, transfer } from './support/wallet.ts';

const run = promisify(execFile);
const SCRIPT = new URL('../docs/partners/verify-ledger-export.mjs', import.meta.url).pathname;

let stack: Stack;
let partner: RegisteredPartner;

beforeAll(async () => {
  stack = await stackWith(['identity', 'onboarding', 'wallet'], { AUTH_RATE_LIMIT_MAX: '1000' });
  partner = await registerAndLogin(stack.api);
});

afterAll(async () => {
  await stack?.stop();
});

const walletDb = <T = any>(sql: string, params: unknown[] = []) =>
  queryDatabase<T>(stack.env.WALLET_DATABASE_URL!, sql, params);

const verify = () => withDatabase(stack.env.WALLET_DATABASE_URL!, verifyLedger);

/** The partner's script of docs/partners/, run as a partner would. */
function partnerScript() {
  return run(process.execPath, [SCRIPT], {
    env: { ...process.env, COIN_API: stack.url, COIN_TOKEN: partner.accessToken },
  }).then(
    (r) => ({ code: 0, out: r.stdout }),
    (err) => ({ code: err.code as number, out: String(err.stdout) }),
  );
}

describe('the hash chain of a partner ledger', () => {
  it('seals every entry in order, verifies by script and by ledger:verify, and finds a tampered entry', async () => {
    const users = await onboardUsers(stack.api, partner.accessToken, 4);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        transfer(stack.api, TO_USER, partner.accessToken, { userId: users[i % 4], coins: 1 + (i % 7) }),
      ),
    );
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const reversed = await stack.api.post(
      '/api/v1/laas/coins/reverse',
      { ledgerEntryId: answers[3].body.data.coinsLedger.id },
      { token: partner.accessToken },
    );
    expect(reversed.status).toBe(200);

    const sealed = (n: number) =>
      waitFor(`${n} sealed entries`, async () => {
        const res = await stack.api.get('/api/v1/laas/coins/ledger-export', {
          token: partner.accessToken,
          query: { after: 0, limit: 1000 },
        });
        expect(res.status).toBe(200);
        return res.body.data.entries.length === n ? res.body.data : undefined;
      });
    await sealed(61);
    // A second wave, sealed in later rounds that continue the chain from its head (position 61).
    const second = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        transfer(stack.api, TO_USER, partner.accessToken, { userId: users[i % 4], coins: 2 }),
      ),
    );
    expect(second.every((a) => a.status === 200)).toBe(true);
    const exported = await sealed(91);
    expect(exported.entries.map((e: any) => e.seq)).toEqual(Array.from({ length: 91 }, (_, i) => i + 1));
    expect(exported.entries[0].prevHash).toBe('0'.repeat(64));
    expect(exported.nextAfter).toBeNull();
    const page = await stack.api.get('/api/v1/laas/coins/ledger-export', {
      token: partner.accessToken,
      query: { after: 10, limit: 5 },
    });
    expect(page.body.data.entries.map((e: any) => e.seq)).toEqual([11, 12, 13, 14, 15]);
    expect(page.body.data.nextAfter).toBe(15);

    expect(await partnerScript()).toMatchObject({ code: 0, out: expect.stringContaining('OK: 91 entries') });
    const clean = await verify();
    expect(clean.violations).toEqual([]);
    expect(clean.unsealed).toBe(0);

    const victim = exported.entries[29];
    await walletDb('UPDATE ledger_entries SET narration = $2 WHERE id = $1', [victim.id, 'tampered']);
    const script = await partnerScript();
    expect(script.code).toBe(1);
    expect(script.out).toContain(`BROKEN at position 30 (entry ${victim.id})`);
    const found = await verify();
    expect(found.violations.filter((v) => v.startsWith('hash chain'))).toEqual([
      expect.stringContaining(`chain position 30 (entry ${victim.id}) does not match its hash`),
    ]);
  });
});
