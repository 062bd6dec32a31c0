/**
 * The image and docker compose run the services as `make up` does: the same V8 flags and the same
 * memory settings (`@coin/startup/runtime`, which says why each is there). Checked offline, so a
 * flag changed in one place only is found before it is deployed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUNTIME_ENV, SERVICE_NODE_ARGS } from '@coin/startup/runtime';
import type { Problem } from './kubernetes.ts';

export function checkRuntimeFlags(root: string): Problem[] {
  const problems: Problem[] = [];
  const expected = ['node', ...SERVICE_NODE_ARGS].join(' ');
  const dockerfile = readFileSync(join(root, 'Dockerfile'), 'utf8');
  const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)?.[1];
  if (!entrypoint || (JSON.parse(entrypoint) as string[]).join(' ') !== expected)
    problems.push({
      source: 'Dockerfile',
      resource: 'ENTRYPOINT',
      message: `must be ${JSON.stringify(expected.split(' '))} (the runtime flags of @coin/startup/runtime)`,
    });
  const env = new Map(
    [...dockerfile.matchAll(/^ENV (.*)$/gm)].flatMap((m) =>
      m[1].split(/\s+/).map((kv) => kv.split('=') as [string, string]),
    ),
  );
  // The compile cache's directory is the image's own, filled when it is built; only its presence counts.
  for (const [key, value] of Object.entries(RUNTIME_ENV))
    if (!env.has(key) || (key !== 'NODE_COMPILE_CACHE' && env.get(key) !== value))
      problems.push({ source: 'Dockerfile', resource: 'ENV', message: `must set ${key}=${value}` });
  const compose = readFileSync(join(root, 'docker-compose.yml'), 'utf8');
  for (const line of compose.split('\n').filter((l) => l.includes('exec node ') && l.includes('"$$@"')))
    if (!line.includes(`exec ${expected} "$$@"`))
      problems.push({
        source: 'docker-compose.yml',
        resource: 'x-app entrypoint',
        message: `must exec ${expected}`,
      });
  return problems;
}
