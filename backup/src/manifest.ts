import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface DatabaseDump {
  service: string;
  /** The custom-format dump (`pg_restore` reads it), relative to the backup directory. */
  file: string;
  startedAt: string;
  finishedAt: string;
  bytes: number;
  /** Migrations applied in the database when it was dumped: a newer release migrates on from them. */
  migrations: string[];
}

export interface BackupManifest {
  format: 1;
  startedAt: string;
  finishedAt: string;
  pgDump: string;
  databases: DatabaseDump[];
}

const MANIFEST = 'manifest.json';

export async function writeManifest(dir: string, manifest: BackupManifest): Promise<void> {
  await writeFile(join(dir, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
}

export async function readManifest(dir: string): Promise<BackupManifest> {
  const manifest = JSON.parse(await readFile(join(dir, MANIFEST), 'utf8')) as BackupManifest;
  if (manifest.format !== 1) throw new Error(`${dir}: unknown backup format ${manifest.format}`);
  return manifest;
}
