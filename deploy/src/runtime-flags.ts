/**
 * The image and docker compose start node through `libs/startup/bin/node-service.sh`, the one place
 * that holds the runtime flags (make up, the test harness and chaos run it too, via `asService`), and
 * no launcher passes V8 flags of its own. Checked offline, so a process started another way is found
 * before it is deployed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from './kubernetes.ts';

const LAUNCHER = 'libs/startup/bin/node-service.sh';
/** The flags the launcher sets: written anywhere else, they would drift from it. */
const V8_FLAGS = /--(max-semi-space-size|heap-growing-percent|no-allocation-site-pretenuring)\b/;

export function checkRuntimeFlags(root: string): Problem[] {
  const problems: Problem[] = [];
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)?.[1];
  const expected = ['/bin/sh', `/app/${LAUNCHER}`];
  if (!entrypoint || JSON.stringify(JSON.parse(entrypoint)) !== JSON.stringify(expected))
    problems.push({
      source: 'Dockerfile',
      resource: 'ENTRYPOINT',
      message: `must be ${JSON.stringify(expected)}`,
    });
  const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
  for (const [i, line] of compose.split('\n').entries()) {
    const startsNode = /(\bexec\s+|entrypoint:\s*\[\s*"|^\s*-\s+)node(?![\w.-])/.test(line);
    if (startsNode || V8_FLAGS.test(line))
      problems.push({
        source: 'docker-compose.yml',
        resource: `line ${i + 1}`,
        message: `starts node without ${LAUNCHER}: ${line.trim()}`,
      });
  }
  if (V8_FLAGS.test(dockerfile))
    problems.push({
      source: 'Dockerfile',
      resource: 'Dockerfile',
      message: `sets runtime flags outside ${LAUNCHER}`,
    });
  return problems;
}
