import type { BaseConfig } from '@coin/config';
import { type ProcessContext, processContext } from './process-context.ts';

/**
 * A process that is not a bus service (the gateway): `start` opens what it needs through `ctx`
 * and registers what must be stopped; `stop` stops it all, last started first. A failure to start
 * stops what had started.
 */
export async function startProcess<C extends BaseConfig, T extends object>(
  name: string,
  config: C,
  start: (ctx: ProcessContext<C>) => Promise<T>,
): Promise<T & { stop(): Promise<void> }> {
  const { ctx, stops } = processContext(name, config);
  try {
    const started = await start(ctx);
    return { ...started, stop: () => stops.stopAll() };
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
}
