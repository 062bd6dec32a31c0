import { mkdir, mkdtemp, readdir, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { backupsIn, pruneBackups, writeManifest } from '../src/manifest.ts';

const roots: string[] = [];
afterAll(async () => {
  for (const r of roots) await rm(r, { recursive: true, force: true });
});

async function complete(root: string, name: string, startedAt: string): Promise<void> {
  await mkdir(join(root, name));
  await writeManifest(join(root, name), {
    format: 1,
    startedAt,
    finishedAt: startedAt,
    pgDump: 'pg_dump (PostgreSQL) 17',
    databases: [],
  });
}

describe("the schedule's backups (db:backup -- --into <root> --keep <n>)", () => {
  it('finds the newest complete one, keeps the newest n and removes unfinished older ones', async () => {
    const root = await mkdtemp(join(tmpdir(), 'coin-backups-'));
    roots.push(root);
    await complete(root, 'b1', '2026-11-27T01:17:00.000Z');
    await complete(root, 'b2', '2026-11-27T02:17:00.000Z');
    await complete(root, 'b3', '2026-11-27T03:17:00.000Z');
    // A backup that died before its manifest, older than the newest complete one.
    await mkdir(join(root, 'died'));
    await utimes(join(root, 'died'), new Date('2026-11-27T02:30:00Z'), new Date('2026-11-27T02:30:00Z'));
    // One running now (no manifest yet, newer than every complete one): left alone.
    await mkdir(join(root, 'running'));

    expect((await backupsIn(root)).map((b) => b.dir)).toEqual(['b3', 'b2', 'b1'].map((n) => join(root, n)));
    const removed = await pruneBackups(root, 2);
    expect(removed.sort()).toEqual([join(root, 'b1'), join(root, 'died')]);
    expect((await readdir(root)).sort()).toEqual(['b2', 'b3', 'running']);
    expect((await backupsIn(root))[0].dir).toBe(join(root, 'b3'));
  });
});
