import { randomBytes } from 'node:crypto';
import { type GatewayProcess, spawnGateway } from '@coin/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

interface LogLine {
  level: number;
  msg: string;
  url?: string;
  statusCode?: number;
}

const INFO = 30;
const DEBUG = 20;

/** A gateway process of its own, with every log line it writes collected. */
async function gatewayWithLogs(env: Record<string, string>) {
  const gateway = await spawnGateway(
    { ...process.env, NATS_NAMESPACE: `t${randomBytes(5).toString('hex')}`, ...env },
    [],
    undefined,
    'pipe',
  );
  const lines: LogLine[] = [];
  let buffered = '';
  gateway.child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const line of complete) if (line) lines.push(JSON.parse(line));
  });
  return { gateway, lines };
}

/** The access-log lines for `url`, once the gateway has written them. */
async function accessLines(lines: LogLine[], url: string, expected: number): Promise<LogLine[]> {
  const of = () => lines.filter((l) => l.msg === 'request completed' && l.url === url);
  for (let i = 0; i < 50 && of().length < expected; i++) await new Promise((r) => setTimeout(r, 20));
  return of();
}

let byDefault: Awaited<ReturnType<typeof gatewayWithLogs>>;
let everyRequest: Awaited<ReturnType<typeof gatewayWithLogs>>;
let debug: Awaited<ReturnType<typeof gatewayWithLogs>>;
const gateways = (): GatewayProcess[] =>
  [byDefault, everyRequest, debug].flatMap((g) => (g ? [g.gateway] : []));

beforeAll(async () => {
  [byDefault, everyRequest, debug] = await Promise.all([
    gatewayWithLogs({}),
    gatewayWithLogs({ ACCESS_LOG_SLOW_MS: '0' }),
    gatewayWithLogs({ LOG_LEVEL: 'debug' }),
  ]);
}, 60_000);

afterAll(async () => {
  await Promise.all(gateways().map((g) => g.stop()));
});

describe('access log', () => {
  it('logs an error answer at info, and a quick success only at debug', async () => {
    const missing = `/api/v1/missing-${randomBytes(3).toString('hex')}`;
    expect((await fetch(`${byDefault.gateway.url}${missing}`)).status).toBe(404);
    expect((await fetch(`${byDefault.gateway.url}/health`)).status).toBe(200);
    expect(await accessLines(byDefault.lines, missing, 1)).toEqual([
      expect.objectContaining({ level: INFO, statusCode: 404 }),
    ]);
    // The 404 was answered after /health had been, so its line would have been written by now.
    expect(await accessLines(byDefault.lines, '/health', 0)).toEqual([]);
  });

  it('logs a success at info when it took ACCESS_LOG_SLOW_MS or longer', async () => {
    expect((await fetch(`${everyRequest.gateway.url}/health`)).status).toBe(200);
    expect(await accessLines(everyRequest.lines, '/health', 1)).toEqual([
      expect.objectContaining({ level: INFO, statusCode: 200 }),
    ]);
  });

  it('logs every request with LOG_LEVEL=debug', async () => {
    expect((await fetch(`${debug.gateway.url}/health`)).status).toBe(200);
    const [line] = await accessLines(debug.lines, '/health', 1);
    expect(line).toMatchObject({ level: DEBUG, statusCode: 200 });
  });
});
