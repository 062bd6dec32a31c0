import { afterAll, describe, expect, it } from 'vitest';
import { createLogger, type MetricsServer, startMetricsServer } from '../src/index.ts';

let server: MetricsServer | undefined;

afterAll(async () => {
  await server?.stop();
});

describe('coin_ready on the metrics port', () => {
  it('is 1 while /ready answers 200 and 0 while it answers 503', async () => {
    let ready = true;
    server = await startMetricsServer({
      port: 0,
      host: '127.0.0.1',
      log: createLogger('test', 'silent'),
      ready: () => ready,
    });
    const base = server.url.replace(/\/metrics$/, '');
    const readyLine = async () =>
      (await (await fetch(server!.url)).text()).split('\n').find((l) => l.startsWith('coin_ready '));
    expect((await fetch(`${base}/ready`)).status).toBe(200);
    expect(await readyLine()).toBe('coin_ready 1');
    ready = false;
    expect((await fetch(`${base}/ready`)).status).toBe(503);
    expect(await readyLine()).toBe('coin_ready 0');
  });
});
