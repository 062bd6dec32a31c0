import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../src/index.ts';

// The document is built on the first request that reads it: each of Swagger UI's routes and
// /openapi.json must get the whole document whichever is asked first.
describe('API documentation built on first read', () => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await startGateway({
      ...process.env,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      PORT: '0',
      LOG_LEVEL: 'silent',
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  it('serves the whole document at /docs/json, /docs/yaml and /openapi.json, /docs/json asked first', async () => {
    const fromUi = (await (await fetch(`${gateway.url}/docs/json`)).json()) as { paths: object };
    expect(Object.keys(fromUi.paths).length).toBeGreaterThan(10);
    const yaml = await (await fetch(`${gateway.url}/docs/yaml`)).text();
    expect(yaml).toContain('openapi: 3.1.0');
    expect(await (await fetch(`${gateway.url}/openapi.json`)).json()).toEqual(fromUi);
  });
});
