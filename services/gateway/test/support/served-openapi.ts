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
 * A gateway started before the calling test file's tests and stopped after them; `env` adds to its
 * environment. Returns a getter, for use inside the tests.
 */
export function gatewayForFile(env: Record<string, string> = {}): () => Gateway {
  let gateway: Gateway | undefined;
  beforeAll(async () => {
    gateway = await startGateway({
      ...process.env,
      NATS_URL: process.env.NATS_URL ?? 'nats://127.0.0.1:4222',
      PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });
  return () => gateway!;
}

/** The OpenAPI document a gateway serves, fetched once for the calling test file. */
export function servedOpenApi(env: Record<string, string> = {}) {
  const gateway = gatewayForFile(env);
  let doc: any;
  beforeAll(async () => {
    doc = await (await fetch(`${gateway().url}/openapi.json`)).json();
  });
  return {
    doc: () => doc,
    /** Every operation of every path. */
    operations: (): OpenApiOperation[] =>
      Object.values(doc.paths).flatMap((item: any) => Object.values(item) as OpenApiOperation[]),
  };
}
