export { runCommand } from './run-command.ts';
export { runMain } from './run-main.ts';
export { startService } from './start-service.ts';
export type { Stoppable } from './stop-list.ts';
