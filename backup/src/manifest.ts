import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
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

/**
 * The complete backups in `root` (each a directory with its manifest, written last), newest first:
 * what a schedule (`db:backup -- --into <root>`) made. A directory without a manifest is a backup
 * that did not finish.
 */
export async function backupsIn(root: string): Promise<{ dir: string; manifest: BackupManifest }[]> {
  const found = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(root, entry.name);
    const manifest = await readManifest(dir).catch(() => undefined);
    if (manifest) found.push({ dir, manifest });
  }
  return found.sort((a, b) => b.manifest.startedAt.localeCompare(a.manifest.startedAt));
}

/** Deletes the complete backups past the newest `keep`, and unfinished ones older than the newest. */
export async function pruneBackups(root: string, keep: number): Promise<string[]> {
  const complete = await backupsIn(root);
  const kept = new Set(complete.slice(0, keep).map((b) => b.dir));
  const newest = complete[0]?.manifest.startedAt ?? '';
  const removed = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    const dir = join(root, entry.name);
    if (!entry.isDirectory() || kept.has(dir)) continue;
    const old = complete.some((b) => b.dir === dir) || (await stat(dir)).mtime.toISOString() < newest;
    if (!old) continue;
    await rm(dir, { recursive: true, force: true });
    removed.push(dir);
  }
  return removed;
}
