import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect } from 'vitest';
import { runbookBaseUrl } from '../src/alerts.ts';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHECK = fileURLToPath(new URL('../src/check.ts', import.meta.url));
export const RUNBOOKS_AT = runbookBaseUrl(ROOT);
const copies: string[] = [];

/** A copy of the deployment files with one edit applied, to show that the check catches it. */
export async function brokenCopy(file: string, edit: (text: string) => string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'coin-deploy-'));
  copies.push(dir);
  await cp(join(ROOT, 'k8s'), join(dir, 'k8s'), { recursive: true });
  await cp(join(ROOT, 'docker-compose.yml'), join(dir, 'docker-compose.yml'));
  await cp(join(ROOT, 'deploy', 'grafana'), join(dir, 'deploy', 'grafana'), { recursive: true });
  await cp(join(ROOT, 'deploy', 'alerts'), join(dir, 'deploy', 'alerts'), { recursive: true });
  await cp(join(ROOT, 'deploy', 'alertmanager'), join(dir, 'deploy', 'alertmanager'), { recursive: true });
  await cp(join(ROOT, 'deploy', 'prometheus.yml'), join(dir, 'deploy', 'prometheus.yml'));
  await cp(join(ROOT, 'docs'), join(dir, 'docs'), { recursive: true });
  await cp(join(ROOT, 'package.json'), join(dir, 'package.json'));
  await cp(join(ROOT, 'Makefile'), join(dir, 'Makefile'));
  await cp(join(ROOT, 'Dockerfile'), join(dir, 'Dockerfile'));
  // The code whose metrics and commands the files may name, unchanged: linked, not copied.
  for (const src of ['libs', 'services', 'backup', 'scripts']) await symlink(join(ROOT, src), join(dir, src));
  const target = join(dir, file);
  const before = await readFile(target, 'utf8');
  const after = edit(before);
  expect(after).not.toBe(before);
  await writeFile(target, after);
  return dir;
}

/** A service's kustomization with one more patch: a strategic merge, or JSON patches of a Deployment. */
export function withPatch(kustomization: string, patch: string, deployment?: string): string {
  const indented = patch.replace(/^/gm, '      ');
  const target = deployment ? `    target:\n      kind: Deployment\n      name: ${deployment}\n` : '';
  return `${kustomization}patches:\n  - patch: |-\n${indented}\n${target}`;
}

/** Registers the set-up and tear-down of the calling test file. */
export function removeCopiesAfterAll(): void {
  afterAll(async () => {
    await Promise.all(copies.map((d) => rm(d, { recursive: true, force: true })));
  });
}
