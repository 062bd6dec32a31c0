import { baseConfigSchema } from '@coin/config';
import { createLogger, runExitHooks } from '@coin/telemetry';
import type { Stoppable } from './stop-list.ts';

/** A process that has not stopped by then is ended, so an orchestrator never waits for ever. */
const STOP_DEADLINE_MS = 15_000;

/**
 * The entry point of every long-running process: starts it, and on SIGINT/SIGTERM stops it
 * (draining in-flight work) before exiting. A failure to start exits non-zero with the reason in
 * the log.
 */
export function runMain(name: string, start: () => Promise<Stoppable>): void {
  // The process's own configuration is loaded inside `start`; a bad LOG_LEVEL is reported there.
  const level = baseConfigSchema.shape.LOG_LEVEL.safeParse(process.env.LOG_LEVEL);
  const log = createLogger(name, level.success ? level.data : 'info');
  let stopping = false;
  Promise.resolve()
    .then(start)
    .then(
      (running) => {
        const shutdown = (signal: string) => {
          if (stopping) return;
          stopping = true;
          log.info({ signal }, 'stopping');
          setTimeout(() => process.exit(1), STOP_DEADLINE_MS).unref();
          Promise.resolve()
            .then(() => running.stop())
            .then(
              () => 0,
              (err) => {
                log.error({ err }, 'stop failed');
                return 1;
              },
            )
            .then(async (code) => {
              await runExitHooks();
              process.exit(code);
            });
        };
        process.on('SIGINT', () => shutdown('SIGINT'));
        process.on('SIGTERM', () => shutdown('SIGTERM'));
      },
      (err) => {
        log.fatal({ err }, 'failed to start');
        process.exit(1);
      },
    );
}
