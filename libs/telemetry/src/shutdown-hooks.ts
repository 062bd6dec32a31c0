const hooks: Array<() => Promise<void>> = [];

/** Work to finish before the process exits (e.g. flushing spans still buffered for export). */
export function onProcessExit(hook: () => Promise<void>): void {
  hooks.push(hook);
}

export async function runExitHooks(): Promise<void> {
  await Promise.allSettled(hooks.map((hook) => hook()));
}
