/**
 * `make bench`: runs each scenario in turn and prints its figures. Every scenario measures its
 * subject beside a baseline run in the same command on the same machine, and reads as their ratio.
 */
import { scenarios } from './scenarios.ts';

const only = process.argv.slice(2);
const chosen = only.length ? scenarios.filter((s) => only.includes(s.name)) : scenarios;
if (chosen.length === 0) {
  console.error(`no scenario named ${only.join(', ')}; known: ${scenarios.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
for (const scenario of chosen) {
  console.log(`\n=== ${scenario.name}: ${scenario.description}`);
  await scenario.run();
}
process.exit(0);
