import type { BaseConfig } from '@coin/config';
import { runExitHooks } from '@coin/telemetry';
import { type ProcessContext, processContext } from './process-context.ts';

/**
 * An operator command (a rebuild, a verification): runs `command` with the same configuration,
 * database and Redis a service would open, closes them, and exits with the code it returned (1
 * if it threw, with the reason on stderr).
 */
export async function runCommand<C extends BaseConfig>(
  name: string,
  config: C,
  command: (ctx: ProcessContext<C>) => Promise<number>,
): Promise<never> {
  const { ctx, stops } = processContext(name, config);
  let code: number;
  try {
    code = await command(ctx);
  } catch (err) {
    console.error(`${name} failed: ${(err as Error).message}`);
    code = 1;
  }
  await stops.stopAll();
  await runExitHooks();
  process.exit(code);
}
