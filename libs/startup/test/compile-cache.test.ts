import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { asService } from '../src/runtime.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const cache = mkdtempSync(join(tmpdir(), 'coin-compile-cache-'));
const run = promisify(execFile);

afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** The modules a process type-stripped because the cache had no stripped source for them. */
async function strippedAtStart(main: string): Promise<string[]> {
  // An invalid setting stops the service once its modules are loaded, before it connects anywhere.
  const service = asService([main], {
    PATH: process.env.PATH,
    NODE_COMPILE_CACHE: cache,
    NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
    LOG_LEVEL: 'not-a-level',
  });
  const { stderr } = await run(service.command, service.args, { cwd: ROOT, env: service.env }).catch(
    (err: { stderr: string }) => err,
  );
  return [...stderr.matchAll(/no transpile cache for StrippedTypeScript (\S+)/g)].map((m) => m[1]);
}

describe('the compile cache make install fills', () => {
  it("holds every module a service's process loads at start, its entry module too", async () => {
    await run(process.execPath, ['scripts/warm-compile-cache.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, NODE_COMPILE_CACHE: cache },
    });
    const mains = readdirSync(join(ROOT, 'services'))
      .map((s) => `services/${s}/src/main.ts`)
      .filter((main) => existsSync(join(ROOT, main)));
    expect(mains.length).toBeGreaterThan(5);
    for (const main of mains)
      expect({ main, stripped: await strippedAtStart(main) }).toEqual({ main, stripped: [] });
  });
});

describe("make up's own process", () => {
  it('starts again at once from the compile cache, as the services start', async () => {
    // A server that does not answer ends the run right after the restart, before anything starts.
    const { stderr } = await run(process.execPath, ['scripts/up.ts'], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_DEBUG_NATIVE: 'COMPILE_CACHE',
        DATABASE_URL_BASE: 'postgres://postgres@127.0.0.1:1',
      },
    }).catch((err: { stderr: string }) => err);
    expect(stderr).toContain('make up needs these servers');
    expect(stderr).toMatch(/\[compile cache\] .* for StrippedTypeScript file:\/\/\S+\/scripts\/up\.ts/);
  });
});
