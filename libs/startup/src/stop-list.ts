import type { Logger } from '@coin/telemetry';

export interface Stoppable {
  stop(): Promise<void> | void;
}

/**
 * What a process has started, stopped in the reverse order: whatever was started last depends on
 * what was started before it (a consumer on the bus connection, the bus on nothing), so it goes
 * first. A step that fails is logged and the rest still run.
 */
export class StopList {
  private readonly steps: Array<{ name: string; stop: () => Promise<void> | void }> = [];
  private readonly log: Logger;

  constructor(log: Logger) {
    this.log = log;
  }

  add<T extends Stoppable>(name: string, thing: T): T {
    this.steps.push({ name, stop: () => thing.stop() });
    return thing;
  }

  async stopAll(): Promise<void> {
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step.stop();
      } catch (err) {
        this.log.error({ err, step: step.name }, 'could not stop cleanly');
      }
    }
  }
}
