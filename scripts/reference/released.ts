import { readdirSync, readFileSync } from 'node:fs';
import type { Json } from './schema-shape.ts';

const RELEASED_DIR = 'docs/reference/released';

/** The newest released document kept in the repository (`openapi-<x.y.z>.json`), by version. */
export function lastReleased(dir = RELEASED_DIR): { version: string; doc: Json } {
  const versions = readdirSync(dir)
    .map((f) => /^openapi-(\d+)\.(\d+)\.(\d+)\.json$/.exec(f))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ file: m[0], parts: [Number(m[1]), Number(m[2]), Number(m[3])] }))
    .sort((a, b) => a.parts[0] - b.parts[0] || a.parts[1] - b.parts[1] || a.parts[2] - b.parts[2]);
  const last = versions.at(-1);
  if (!last) throw new Error(`${dir} holds no openapi-<version>.json`);
  return { version: last.parts.join('.'), doc: JSON.parse(readFileSync(`${dir}/${last.file}`, 'utf8')) };
}
