import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Problem } from './files.ts';

const DIR = 'docs/decisions';
const NAME = /^\d{4}-\d{2}-\d{2}-[a-z0-9]+(-[a-z0-9]+)*\.md$/;

/** Every decision record is named `YYYY-MM-DD-short-slug.md` and listed in the folder's index. */
export function checkDecisionRecords(root: string): Problem[] {
  const dir = join(root, DIR);
  if (!existsSync(dir)) return [];
  const index = existsSync(join(dir, 'README.md')) ? readFileSync(join(dir, 'README.md'), 'utf8') : '';
  return readdirSync(dir)
    .filter((f) => f !== 'README.md')
    .sort()
    .flatMap((f): Problem[] => {
      const file = `${DIR}/${f}`;
      if (!NAME.test(f)) return [{ file, message: 'a decision record is named YYYY-MM-DD-short-slug.md' }];
      if (!index.includes(`](${f})`)) return [{ file, message: `not listed in ${DIR}/README.md` }];
      return [];
    });
}
