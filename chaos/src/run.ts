import { seededRandom, startWebhookReceiver } from '@coin/testing';
import { forgetPartnerIndex } from '../../e2e/support/leaderboard.ts';
import { Books } from './books.ts';
import { acknowledgedChecks } from './checks/acknowledged.ts';
import { afterHealChecks } from './checks/after-heal.ts';
import { boardChecks } from './checks/boards.ts';
import type { CheckResult } from './checks/check.ts';
import { check } from './checks/check.ts';
import { eventChecks } from './checks/events.ts';
import { ledgerChecks } from './checks/ledger.ts';
import { limitedRewardChecks } from './checks/limited-rewards.ts';
import { lotsAndHoldsChecks } from './checks/lots-and-holds.ts';
import { parkedChecks } from './checks/parked.ts';
import { requestChecks } from './checks/requests.ts';
import { rewardChecks } from './checks/rewards.ts';
import { webhookChecks } from './checks/webhooks.ts';
import { Cluster } from './cluster.ts';
import { type FaultLog, injectFaults, planFaults } from './faults.ts';
import type { ChaosOptions } from './options.ts';
import { waitForQuiet } from './quiet.ts';
import { type Recovery, recoveries } from './rto.ts';
import { skipPartnerPosting } from './sabotage.ts';
import { startServers } from './servers.ts';
import { runClients } from './workload/clients.ts';
import { seededUuids } from './workload/seeded-uuids.ts';
import { buildWorld, type PartnerWorld } from './workload/world.ts';

export interface RunResult {
  seed: number;
  faults: FaultLog;
  requests: { ok: number; refused: number; unanswered: number; serverErrors: number; noAnswer: number };
  unexpectedExits: string[];
  checks: CheckResult[];
  /** The RTO of each server-level fault (HA topology). */
  recoveries: Recovery[];
}

const say = (line: string) => console.log(`  ${new Date().toISOString().slice(11, 19)} ${line}`);

/**
 * One run: the cluster up, the world built, the seeded workload under the seeded faults for the
 * duration, then healing, the wait for quiet and the final read. Everything the run made is removed.
 */
export async function runOnce(seed: number, opts: ChaosOptions): Promise<RunResult> {
  const random = seededRandom('chaos run', { SEED: String(seed) });
  const uuid = seededUuids(random);
  const servers = await startServers(opts);
  const cluster = new Cluster(opts.logLevel, servers.env, opts.startTimeoutMs);
  const receiver = await startWebhookReceiver();
  const books = new Books(cluster.env);
  const interrupt = () => {
    void Promise.allSettled([cluster.stop(), receiver.close()])
      .then(() => servers.close())
      .then(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  let world: PartnerWorld[] = [];
  try {
    await cluster.start();
    say(
      `${cluster.replicas.length} processes up (namespace ${cluster.env.NATS_NAMESPACE}, ${opts.servers} servers: ${[servers.env.DATABASE_URL_BASE, servers.env.NATS_URL, servers.env.REDIS_URL].join(' ')})`,
    );
    world = await buildWorld(cluster.gatewayUrls[0], receiver, opts.partners, uuid);
    const faults = planFaults(random, opts, cluster.replicas.length);
    let giveUpAt = Number.POSITIVE_INFINITY;
    const until = Date.now() + opts.durationMs;
    const workload = runClients({
      random,
      uuid,
      world,
      clients: opts.clients,
      gateways: () => cluster.gatewayUrls,
      until,
      giveUp: () => Date.now() > giveUpAt,
    });
    say(
      `workload of ${opts.clients} clients for ${opts.durationMs / 1000} s, ${faults.length} faults planned`,
    );
    const log = await injectFaults(cluster, servers, faults, () => Date.now() >= until, say);
    while (Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    await cluster.heal();
    say('healed: every process up');
    giveUpAt = Date.now() + 60_000;
    await workload.done;
    const quiet = await waitForQuiet(books, cluster.env, opts.quietTimeoutMs);
    say(
      `quiet after ${quiet.ms} ms${quiet.moving.length ? `; still moving: ${quiet.moving.join(', ')}` : ''}`,
    );
    const checks: CheckResult[] = [
      check('quiet after healing', `${(quiet.ms / 1000).toFixed(1)} s`, quiet.moving),
      await afterHealChecks(cluster.gatewayUrls, world, uuid, workload.records),
    ];
    await waitForQuiet(books, cluster.env, opts.quietTimeoutMs);
    if (opts.sabotage) say(`sabotage: ${await skipPartnerPosting(books)}`);
    const url = cluster.gatewayUrls[0];
    checks.push(
      ...(await ledgerChecks(books)),
      ...(await requestChecks(books, workload.records, world)),
      ...(await lotsAndHoldsChecks(books, workload.records)),
      ...(await rewardChecks(books, workload.records, world, url)),
      ...(await limitedRewardChecks(books, workload.records, world)),
      ...(await boardChecks(books, world, url)),
      ...(await webhookChecks(books, workload.records, world, receiver)),
      ...(await parkedChecks(books, cluster.env)),
    );
    if (opts.topology === 'ha')
      checks.push(
        check('every fault carried out', `${log.events.length} server faults`, log.errors),
        ...(await acknowledgedChecks(books, workload.records, world)),
        ...(await eventChecks(books, cluster.env)),
      );
    const records = workload.records;
    const finals = records.map((r) => r.final?.status);
    return {
      seed,
      faults: log,
      requests: {
        ok: finals.filter((s) => s !== undefined && s < 300).length,
        refused: finals.filter((s) => s !== undefined && s >= 400).length,
        unanswered: finals.filter((s) => s === undefined).length,
        serverErrors: records.reduce((n, r) => n + r.serverErrors, 0),
        noAnswer: records.reduce((n, r) => n + r.noAnswer, 0),
      },
      unexpectedExits: cluster.unexpectedExits,
      checks,
      recoveries: recoveries(log.events, records),
    };
  } finally {
    process.off('SIGINT', interrupt);
    await books.close();
    await receiver.close();
    await cluster.stop();
    for (const w of world) await forgetPartnerIndex(cluster.env.REDIS_URL!, w.partnerId);
    await servers.close();
  }
}
