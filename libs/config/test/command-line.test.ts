import { afterEach, describe, expect, it, vi } from 'vitest';
import { runSubcommand } from '../src/index.ts';

const usage = 'usage: tool greet <name>';

/** Runs the command line `argv` and answers what an operator sees: the exit code and stderr. */
async function run(argv: string[]) {
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((line: string) => errors.push(line));
  const greeted: string[] = [];
  process.exitCode = undefined;
  await runSubcommand(usage, argv, {
    async greet([name]) {
      if (!name) return 'usage';
      if (name === 'nobody') throw new Error('nobody to greet');
      greeted.push(name);
    },
  });
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  return { exitCode, errors, greeted };
}

describe('runSubcommand', () => {
  afterEach(() => vi.restoreAllMocks());

  it('runs the sub-command named with the positionals after its name', async () => {
    expect(await run(['greet', 'ada'])).toEqual({ exitCode: undefined, errors: [], greeted: ['ada'] });
  });

  it('answers the usage with exit code 2 for no, an unknown or an ill-fitting sub-command', async () => {
    for (const argv of [[], ['wave'], ['greet'], ['toString']])
      expect(await run(argv), argv.join(' ')).toEqual({ exitCode: 2, errors: [usage], greeted: [] });
  });

  it('answers the reason with exit code 1 when the sub-command fails', async () => {
    expect(await run(['greet', 'nobody'])).toEqual({ exitCode: 1, errors: ['nobody to greet'], greeted: [] });
  });
});
