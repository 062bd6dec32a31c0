import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from './files.ts';

/** The README is the front door: what the service is, the two commands, a first session, where next. */
const README_MAX_LINES = 200;

export function checkReadmeLength(root: string): Problem[] {
  const file = join(root, 'README.md');
  if (!existsSync(file)) return [{ file: 'README.md', message: 'missing' }];
  const lines = readFileSync(file, 'utf8').replace(/\n$/, '').split('\n').length;
  return lines > README_MAX_LINES
    ? [
        {
          file: 'README.md',
          message: `${lines} lines, more than ${README_MAX_LINES}: move the rest into docs/`,
        },
      ]
    : [];
}
