/**
 * `npm run lint`'s checks of the documents and of the code's shape (part of `make test`), each a
 * function of the repository's root so its test can run it on a broken copy:
 *   - README.md at most 200 lines (readme-length.ts);
 *   - no source file over 300 lines, generated ones and migrations aside (source-length.ts);
 *   - no broken relative link or anchor in README.md, CONTRIBUTING.md, CHANGELOG.md, docs/ and the
 *     services' READMEs (links.ts: remark-validate-links, offline);
 *   - no issue number in those documents or in the code's comments (issue-numbers.ts);
 *   - every count of the API a document states equal to the contracts' (api-figures.ts);
 *   - every decision record named by its date and listed in docs/decisions/README.md
 *     (decision-records.ts).
 * Only the link check uses a library; the others are ours: no published tool knows our contracts or
 * our records' naming, and the issue-number rule is a pair of patterns.
 * `node scripts/docs-check/main.ts [root]`; exits 1 naming each problem.
 */
import { resolve } from 'node:path';
import { allOperations, webhooks } from '@coin/contracts';
import { type ApiFigures, checkApiFigures } from './api-figures.ts';
import { checkDecisionRecords } from './decision-records.ts';
import type { Problem } from './files.ts';
import { checkIssueNumbers } from './issue-numbers.ts';
import { checkLinks } from './links.ts';
import { checkReadmeLength } from './readme-length.ts';
import { checkSourceLength } from './source-length.ts';

/** The figures of the API as `libs/contracts` defines them. */
export function contractFigures(): ApiFigures {
  const http = allOperations.filter((op) => op.http);
  return {
    httpOperations: http.length,
    internalOperations: allOperations.length - http.length,
    methodPathPairs: http.reduce((n, op) => n + 1 + (op.http?.alsoMethods?.length ?? 0), 0),
    eventKinds: webhooks.EVENT_KINDS.length,
  };
}

export async function checkDocs(root: string, figures: ApiFigures = contractFigures()): Promise<Problem[]> {
  return [
    ...checkReadmeLength(root),
    ...checkSourceLength(root),
    ...(await checkLinks(root)),
    ...checkIssueNumbers(root),
    ...checkApiFigures(root, figures),
    ...checkDecisionRecords(root),
  ];
}

if (import.meta.main) {
  const problems = await checkDocs(resolve(process.argv[2] ?? '.'));
  for (const p of problems) console.error(`✗ ${p.file}${p.line ? `:${p.line}` : ''}: ${p.message}`);
  if (problems.length > 0) {
    console.error(`docs-check: ${problems.length} problem(s)`);
    process.exit(1);
  }
}
