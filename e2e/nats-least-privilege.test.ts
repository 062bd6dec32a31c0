import { randomBytes, randomUUID } from 'node:crypto';
import {
  busNames,
  callOperation,
  handle,
  type NatsConnection,
  PAYLOAD_STREAM,
  publicKeyOf,
  serveOperations,
} from '@coin/bus';
import { EVENT_CONSUMERS, wallet } from '@coin/contracts';
import { parkedNames } from '@coin/events';
import { createLogger } from '@coin/telemetry';
import { setUpTestBus, transferReply } from '@coin/testing';
import { jetstreamManager, StorageType } from '@nats-io/jetstream';
import { errors } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../scripts/nats-auth/permissions.ts';
import { type AuthorizedNats, startAuthorizedNats } from './support/authorized-nats.ts';

// Each process of the deployment, compromised in turn, tries what a foothold on the bus would allow
// against a server running the generated authorization: take over the streams or consumers to copy
// another's replies or to hand the wallet a transfer of its choosing, read or purge the payload
// stream, send a request with no reply subject. The wallet is played by the project's own serving
// code with a handler that records what reaches it; the gateway's real calls go through meanwhile.

const namespace = `t${randomBytes(5).toString('hex')}`;
const names = busNames(namespace);
const parked = parkedNames(names).stream;
const ATTACKERS: readonly Role[] = [
  'gateway',
  'identity',
  'onboarding',
  'rules',
  'wallet',
  'leaderboard',
  'webhooks',
];
const walletSubject = names.subject(wallet.transferToUser.subject);
const enc = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
let nats: AuthorizedNats;
let walletNc: NatsConnection;
let gatewayNc: NatsConnection;
let stopWallet: () => Promise<void>;
/** Every request the wallet's transfer handler ran, with the partner and coins it was handed. */
const transfers: { partnerId?: string; coins: number }[] = [];

beforeAll(async () => {
  nats = await startAuthorizedNats(namespace);
  // The operator's set-up (npm run bus:setup), with the operator's credentials.
  await setUpTestBus({
    NATS_URL: nats.url,
    NATS_NAMESPACE: namespace,
    NATS_OPERATOR_NKEY_SEED: nats.seedOf('operator'),
  });
  walletNc = await nats.connectAs('wallet');
  gatewayNc = await nats.connectAs('gateway');
  const served = serveOperations(walletNc, {
    service: 'wallet',
    version: '0.0.0',
    log: createLogger('wallet-stand-in', 'silent'),
    handlers: [
      handle(wallet.transferToUser, async ({ partnerId, body }) => {
        transfers.push({ partnerId, coins: body.coins });
        return transferReply({ partnerId: partnerId!, userId: body.userId, coins: body.coins });
      }),
    ],
  });
  stopWallet = served.stop;
  await walletNc.flush();
}, 60_000);

afterAll(async () => {
  await stopWallet?.();
  await walletNc?.close();
  await gatewayNc?.close();
  await nats?.stop();
});

type Outcome = 'refused' | 'allowed';

/** The server's answer to a request: refused with a publish permissions violation, or anything else. */
async function outcome(nc: NatsConnection, subject: string, body: unknown = {}): Promise<Outcome> {
  try {
    await nc.request(subject, enc(body), { timeout: 3000 });
    return 'allowed';
  } catch (err) {
    const cause = err instanceof errors.RequestError ? err.cause : err;
    return cause instanceof errors.PermissionViolationError && cause.operation === 'publish'
      ? 'refused'
      : 'allowed';
  }
}

const API = '$JS.API';

/** Every attack, as the JetStream API requests it takes; `role` is the attacker. */
function attacks(role: Role): { name: string; subject: string; body: unknown }[] {
  const gatewayInbox = `_INBOX_${publicKeyOf(nats.seedOf('gateway'))}.>`;
  const republish = (src: string) => ({ src, dest: walletSubject });
  const own = Object.values(EVENT_CONSUMERS).find((c) => c.service === role);
  const durable = names.durable(own?.durable ?? `evil-${role}`);
  const otherFilter = names.event('events.identity.>');
  const evil = `EVIL_${role.toUpperCase()}`;
  const pushTo = { deliver_subject: walletSubject, ack_policy: 'none', deliver_policy: 'all' };
  return [
    {
      name: "stream update adding the gateway's inbox",
      subject: `${API}.STREAM.UPDATE.${names.stream}`,
      body: { name: names.stream, subjects: [names.event('events.>'), gatewayInbox] },
    },
    {
      name: "stream creation over the gateway's inbox",
      subject: `${API}.STREAM.CREATE.${evil}`,
      body: { name: evil, subjects: [gatewayInbox], storage: 'memory' },
    },
    {
      name: 'stream creation republishing replies to the wallet',
      subject: `${API}.STREAM.CREATE.${evil}`,
      body: { name: evil, subjects: [`${evil}.>`], republish: republish('>'), storage: 'memory' },
    },
    ...[parked, PAYLOAD_STREAM].flatMap((s) => [
      {
        name: `creation of ${s} with a republish to the wallet's subject`,
        subject: `${API}.STREAM.CREATE.${s}`,
        body: { name: s, subjects: [`${s}.>`], republish: republish('>') },
      },
      {
        name: `update of ${s} with a republish to the wallet's subject`,
        subject: `${API}.STREAM.UPDATE.${s}`,
        body: { name: s, subjects: [`${s}.>`], republish: republish('>') },
      },
    ]),
    {
      name: 'consumer creation with another filter',
      subject: `${API}.CONSUMER.CREATE.${names.stream}.${durable}`,
      body: { stream_name: names.stream, config: { durable_name: durable, filter_subject: otherFilter } },
    },
    {
      name: 'consumer creation, the filtered (.>) form',
      subject: `${API}.CONSUMER.CREATE.${names.stream}.${durable}.${otherFilter}`,
      body: { stream_name: names.stream, config: { durable_name: durable, filter_subject: otherFilter } },
    },
    {
      name: 'consumer creation, the DURABLE.CREATE form',
      subject: `${API}.CONSUMER.DURABLE.CREATE.${names.stream}.${durable}`,
      body: { stream_name: names.stream, config: { durable_name: durable, ...pushTo } },
    },
    {
      name: "consumer creation, the bare form, delivering to the wallet's subject",
      subject: `${API}.CONSUMER.CREATE.${names.stream}`,
      body: { stream_name: names.stream, config: pushTo },
    },
    {
      name: "its own durable made a push consumer delivering to the wallet's subject",
      subject: `${API}.CONSUMER.CREATE.${names.stream}.${durable}`,
      body: { stream_name: names.stream, config: { durable_name: durable, ...pushTo } },
    },
    {
      name: 'DIRECT.GET of the payload stream by sequence',
      subject: `${API}.DIRECT.GET.${PAYLOAD_STREAM}`,
      body: { seq: 1 },
    },
    {
      name: 'MSG.GET of the payload stream by sequence',
      subject: `${API}.STREAM.MSG.GET.${PAYLOAD_STREAM}`,
      body: { seq: 1 },
    },
    { name: 'purge of the payload stream', subject: `${API}.STREAM.PURGE.${PAYLOAD_STREAM}`, body: {} },
    {
      name: 'deletion of a payload',
      subject: `${API}.STREAM.MSG.DELETE.${PAYLOAD_STREAM}`,
      body: { seq: 1 },
    },
    { name: 'deletion of the payload stream', subject: `${API}.STREAM.DELETE.${PAYLOAD_STREAM}`, body: {} },
    { name: 'DIRECT.GET of the parked events', subject: `${API}.DIRECT.GET.${parked}`, body: { seq: 1 } },
  ];
}

/** A transfer the gateway sends for a partner, its envelope over max_payload: it travels through the payload stream. */
async function gatewayTransfer(idempotencyKey: string) {
  const partnerId = randomUUID();
  const reply = await callOperation(
    gatewayNc,
    wallet.transferToUser,
    { partnerId, idempotencyKey, body: { userId: randomUUID(), coins: 1 } } as never,
    { timeoutMs: 10_000 },
  );
  return { partnerId, reply };
}

/** The streams of the server, as the operator lists them. */
async function streamNames(): Promise<string[]> {
  const operator = await nats.connectAs('operator');
  try {
    const names: string[] = [];
    for await (const name of (await jetstreamManager(operator)).streams.names()) names.push(name);
    return names.sort();
  } finally {
    await operator.close();
  }
}

describe('a compromised process on the bus', () => {
  it.each(ATTACKERS)(
    'as %s: every attack is refused with a permissions violation and nothing is captured or transferred',
    async (role) => {
      const nc = await nats.connectAs(role, `attacker-${role}`);
      try {
        const list = attacks(role);
        const outcomes = await Promise.all(list.map((a) => outcome(nc, a.subject, a.body)));
        const allowed = list.filter((_, i) => outcomes[i] !== 'refused').map((a) => a.name);
        expect(allowed).toEqual([]);
        // A request with no reply subject: refused to a process the contract does not name as a
        // caller; from a caller (the gateway, rules), delivered but run by no handler.
        const before = transfers.length;
        nc.publish(
          walletSubject,
          enc({ partnerId: randomUUID(), body: { userId: randomUUID(), coins: 1_000_000 } }),
        );
        await nc.flush();
        // The gateway's own transfer, with a payload over max_payload, goes through meanwhile.
        const { partnerId, reply } = await gatewayTransfer('x'.repeat(300_000));
        expect(reply.coinsLedger).toBeDefined();
        // Only the gateway's: no republished, pushed or reply-less copy ran the handler.
        expect(transfers.slice(before)).toEqual([{ partnerId, coins: 1 }]);
        // No stream stored the gateway's reply to copy it out: only the operator's three exist.
        expect(await streamNames()).toEqual([names.stream, PAYLOAD_STREAM, parked].sort());
        const log = await nats.log();
        for (const a of list)
          expect(log, `${role}: ${a.name}`).toContain(
            `Publish Violation - Nkey "${publicKeyOf(nats.seedOf(role))}", Subject "${a.subject}"`,
          );
      } finally {
        await nc.close();
      }
    },
    60_000,
  );

  it('leaves the streams and durables as the operator set them up', async () => {
    const operator = await nats.connectAs('operator');
    try {
      const jsm = await jetstreamManager(operator);
      const events = await jsm.streams.info(names.stream);
      expect(events.config.subjects).toEqual([names.event('events.>')]);
      for (const s of [names.stream, parked, PAYLOAD_STREAM])
        expect((await jsm.streams.info(s)).config.republish).toBeUndefined();
      for (const c of Object.values(EVENT_CONSUMERS)) {
        const info = await jsm.consumers.info(names.stream, names.durable(c.durable));
        expect(info.config.filter_subject).toBe(names.event(c.subject));
        expect(info.config.deliver_subject).toBeUndefined();
      }
      const payloads = await jsm.streams.info(PAYLOAD_STREAM);
      expect(payloads.config).toMatchObject({
        storage: StorageType.File,
        deny_purge: true,
        deny_delete: true,
      });
      expect(payloads.config.max_bytes).toBeGreaterThan(0);
    } finally {
      await operator.close();
    }
  });

  it('finds the payload stream still there after a NATS restart, so no window opens to create it', async () => {
    await nats.restart();
    const attacker = await nats.connectAs('leaderboard', 'attacker-after-restart');
    try {
      expect(
        await outcome(attacker, `${API}.STREAM.CREATE.${PAYLOAD_STREAM}`, { name: PAYLOAD_STREAM }),
      ).toBe('refused');
      const info = await (await jetstreamManager(attacker)).streams.info(PAYLOAD_STREAM);
      expect(info.config.storage).toBe(StorageType.File);
      // The gateway's large call works on the stream that survived, once both ends have reconnected.
      const deadline = Date.now() + 15_000;
      for (;;) {
        const done = await gatewayTransfer('y'.repeat(300_000)).catch((err: Error) => err);
        if (!(done instanceof Error)) {
          expect(done.reply.coinsLedger).toBeDefined();
          break;
        }
        if (Date.now() > deadline) throw done;
        await new Promise((r) => setTimeout(r, 200));
      }
    } finally {
      await attacker.close();
    }
  }, 60_000);
});
