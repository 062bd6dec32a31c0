import { afterAll, beforeAll } from 'vitest';
import { type Gateway, startGateway } from '../../src/index.ts';

export type OpenApiOperation = {
  operationId: string;
  description?: string;
  responses: Record<string, any>;
  requestBody?: any;
  parameters?: any[];
};

/**
 * The OpenAPI document a gateway serves, fetched once for the calling test file (a gateway started
 * before its tests and stopped after them); `env` adds to the gateway's environment.
 */
export function servedOpenApi(env: Record<string, string> = {}) {
  let gateway: Gateway | undefined;
  let doc: any;
  beforeAll(async () => {
    gateway = await startGateway({
      ...process.env,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    });
    doc = await (await fetch(`${gateway.url}/openapi.json`)).json();
  });
  afterAll(async () => {
    await gateway?.stop();
  });
  return {
    doc: () => doc,
    /** Every operation of every path. */
    operations: (): OpenApiOperation[] =>
      Object.values(doc.paths).flatMap((item: any) => Object.values(item) as OpenApiOperation[]),
  };
}
