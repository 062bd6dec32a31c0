export interface PollLoop {
  /** Run again now rather than at the next tick (e.g. after a commit that added work). */
  notify(): void;
  /** Ends the loop after the pass under way. */
  stop(): Promise<void>;
}

/**
 * The loop of the outbox relay and of every job worker: runs `once` again at once while it finds
 * work, otherwise after `intervalMs` or as soon as `notify` is called. A pass that throws is
 * reported and retried at the next tick, so a database or broker outage only delays the work.
 */
export function startPollLoop(opts: {
  once: () => Promise<number>;
  intervalMs: number;
  onError: (err: unknown) => void;
}): PollLoop {
  let stopped = false;
  let wake: (() => void) | undefined;
  let pendingWake = false;

  const loop = (async () => {
    while (!stopped) {
      let done = 0;
      try {
        done = await opts.once();
      } catch (err) {
        opts.onError(err);
      }
      if (done > 0 || stopped) continue;
      if (pendingWake) {
        pendingWake = false;
        continue;
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, opts.intervalMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  })();

  return {
    notify() {
      if (wake) wake();
      else pendingWake = true;
    },
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
