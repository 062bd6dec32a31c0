/**
 * `node scripts/profile-top.ts <file.cpuprofile> [count]`: the functions with the most time of their
 * own (self time, idle left out), with their share of the busy time: enough to read a `--cpu-prof`
 * profile where no browser is at hand. Busy is not all CPU on a saturated machine: V8 samples by the
 * clock, so a thread's time waiting for a core lands in the call it was preempted in (docs/testing.md, "Measuring and profiling").
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

const [file, count = '25'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/profile-top.ts <file.cpuprofile> [count]');
  process.exit(1);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
};
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<string, number>();
let busyUs = 0;
profile.samples.forEach((id, i) => {
  const { functionName, url, lineNumber } = nodes.get(id)!.callFrame;
  if (functionName === '(idle)') return;
  const where = url
    .replace(/^.*node_modules\//, '')
    .replace(/^file:\/\/.*?\/(libs|services|scripts|bench)\//, '$1/');
  const key = `${functionName || '(anonymous)'}  ${where}${url ? `:${lineNumber + 1}` : ''}`;
  const us = profile.timeDeltas[i] ?? 0;
  selfUs.set(key, (selfUs.get(key) ?? 0) + us);
  busyUs += us;
});
console.log(`busy ${(busyUs / 1000).toFixed(0)} ms`);
for (const [key, us] of [...selfUs].sort((a, b) => b[1] - a[1]).slice(0, Number(count)))
  console.log(
    `${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / busyUs).toFixed(1).padStart(5)}%  ${key}`,
  );
