/**
 * `node scripts/pin-images.ts [--check]`: the base images of the Dockerfile, docker-compose.yml and
 * k8s/ are pinned by digest (`name:tag@sha256:…`), so a build or a deployment pulls the bytes that
 * were tested, not whatever the tag points at that day. Without `--check`, asks each image's registry
 * (its HTTP API, an anonymous pull token) for the tag's current digest and rewrites the references;
 * with it, lists every reference without a digest and exits 1. To update an image: change its tag,
 * run this, review the diff, run the tests.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../', import.meta.url).pathname;
/** Images built here, not pulled: the project's own. */
const OWN = new Set(['coin-rewards']);
const REFERENCE = /(FROM\s+|image:\s*)([a-z0-9][\w./-]*):([\w.-]+)(@sha256:[0-9a-f]{64})?/g;

function files(): string[] {
  const out = [join(ROOT, 'Dockerfile'), join(ROOT, 'docker-compose.yml')];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.yaml')) out.push(path);
    }
  };
  walk(join(ROOT, 'k8s'));
  return out;
}

/** Registry host and repository path of an image name (Docker Hub's official images under library/). */
function locate(name: string): { registry: string; repository: string } {
  const [first, ...rest] = name.split('/');
  if (rest.length && (first.includes('.') || first.includes(':')))
    return { registry: first, repository: rest.join('/') };
  return { registry: 'registry-1.docker.io', repository: rest.length ? name : `library/${name}` };
}

const ACCEPT = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');

/** The tag's digest: HEAD on its manifest, with the anonymous token the registry's challenge names. */
async function digestOf(name: string, tag: string): Promise<string> {
  const { registry, repository } = locate(name);
  const manifest = `https://${registry}/v2/${repository}/manifests/${tag}`;
  let response = await fetch(manifest, { method: 'HEAD', headers: { accept: ACCEPT } });
  const challenge = response.headers.get('www-authenticate');
  if (response.status === 401 && challenge?.startsWith('Bearer ')) {
    const params = Object.fromEntries([...challenge.matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1], m[2]]));
    const url = new URL(params.realm);
    if (params.service) url.searchParams.set('service', params.service);
    url.searchParams.set('scope', params.scope ?? `repository:${repository}:pull`);
    const { token } = (await (await fetch(url)).json()) as { token: string };
    response = await fetch(manifest, {
      method: 'HEAD',
      headers: { accept: ACCEPT, authorization: `Bearer ${token}` },
    });
  }
  const digest = response.headers.get('docker-content-digest');
  if (!response.ok || !digest) throw new Error(`${name}:${tag}: ${registry} answered ${response.status}`);
  return digest;
}

const check = process.argv.includes('--check');
let missing = 0;
for (const file of files()) {
  const text = readFileSync(file, 'utf8');
  const refs = [...text.matchAll(REFERENCE)].filter((m) => !OWN.has(m[2]));
  if (check) {
    for (const m of refs.filter((r) => !r[4])) {
      console.log(`${file.slice(ROOT.length)}: ${m[2]}:${m[3]} has no digest`);
      missing++;
    }
    continue;
  }
  let updated = text;
  for (const m of refs) {
    const digest = await digestOf(m[2], m[3]);
    updated = updated.replace(m[0], `${m[1]}${m[2]}:${m[3]}@${digest}`);
  }
  if (updated !== text) {
    writeFileSync(file, updated);
    console.log(`${file.slice(ROOT.length)}: pinned`);
  }
}
if (check && missing) {
  console.error(`${missing} image reference(s) without a digest: run node scripts/pin-images.ts`);
  process.exit(1);
}
