import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Stack, startStack } from '@coin/testing';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, gatewayConfig, startGateway } from '../src/index.ts';

// Gateways configured as in production (behind one proxy, limits in Redis), with no service
// behind them: a login the limit lets through answers 503, one it stops answers 429.
const LIMIT = 20;
const production = { APP_MODE: 'production', TRUST_PROXY: '1', AUTH_RATE_LIMIT_MAX: String(LIMIT) };
let stack: Stack;
let second: Gateway;
let proxy: Server;
let proxyUrl: string;

/** The documented ingress's behaviour: it appends the address it sees to X-Forwarded-For. */
function appendingProxy(target: string): Promise<Server> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const given = req.headers['x-forwarded-for'];
    const forwarded = [given, req.socket.remoteAddress].filter(Boolean).join(', ');
    const upstream = await request(`${target}${req.url}`, {
      method: req.method as 'POST',
      headers: { 'content-type': String(req.headers['content-type']), 'x-forwarded-for': forwarded },
      body: Buffer.concat(chunks),
    });
    res.writeHead(upstream.statusCode, { 'content-type': String(upstream.headers['content-type']) });
    res.end(Buffer.from(await upstream.body.arrayBuffer()));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

beforeAll(async () => {
  stack = await startStack({
    services: {},
    gateway: startGateway,
    env: { ...production, REQUEST_TIMEOUT_MS: '500' },
  });
  second = await startGateway({ ...stack.env, PORT: '0', READY_SERVICES: '' });
  proxy = await appendingProxy(stack.url);
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => proxy?.close(r));
  await second?.stop();
  await stack?.stop();
});

async function login(base: string, forwardedFor?: string): Promise<number> {
  const res = await request(`${base}/api/v1/ufel/partners/login`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'x' }),
  });
  await res.body.dump();
  return res.statusCode;
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('per-client limits', () => {
  it('limits 60 logins through the proxy although each forges a fresh X-Forwarded-For', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) statuses.push(await login(proxyUrl, `203.0.113.${i}, 198.51.100.${i}`));
    console.log(
      `60 logins, each with a fresh forged X-Forwarded-For, through the appending proxy: ${count(statuses, 503)} let through, ${count(statuses, 429)} answered 429`,
    );
    expect(statuses.slice(0, LIMIT).every((s) => s === 503)).toBe(true);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('holds one client to the limit across two gateways sharing Redis', async () => {
    const client = '192.0.2.7';
    const statuses: number[] = [];
    for (let i = 0; i < 2 * LIMIT; i++) statuses.push(await login(i % 2 ? second.url : stack.url, client));
    console.log(
      `${2 * LIMIT} logins from one client alternating between two gateways: ${count(statuses, 503)} let through (limit ${LIMIT}), ${count(statuses, 429)} answered 429`,
    );
    expect(statuses.filter((s) => s === 503)).toHaveLength(LIMIT);
    expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    expect(await login(stack.url, '192.0.2.8')).toBe(503);
  });

  it('refuses TRUST_PROXY=true, naming the setting', () => {
    expect(() => gatewayConfig({ APP_MODE: 'development', TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(
      gatewayConfig({ APP_MODE: 'development', TRUST_PROXY: '10.0.0.0/8, 192.168.1.2' }).TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', '192.168.1.2']);
  });
});
