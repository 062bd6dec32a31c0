/**
 * `npm run openapi`: writes what is generated from the contracts' HTTP operations and documented
 * errors: the API reference (docs/reference/openapi.json) and the SDK's `appErrorCode` types, and
 * lists what would break partners' code written against the last released reference
 * (docs/reference/released/).
 * `--check` (`npm run lint`) writes nothing and exits 1 when a file differs from what the contracts
 * generate now, or when a breaking change is not named in CHANGELOG.md's `## Unreleased` section.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { breakingChanges, nameOf, unnamed } from './reference/breaking-changes.ts';
import { OPENAPI_PATH, referenceDocument } from './reference/openapi-document.ts';
import { lastReleased } from './reference/released.ts';
import { SDK_ERROR_CODES_PATH, sdkErrorCodes } from './reference/sdk-error-codes.ts';

/** Biome's formatting of TypeScript text, so a generated file reads like the code beside it. */
function formatted(path: string, text: string): string {
  return execFileSync('node_modules/.bin/biome', ['format', `--stdin-file-path=${path}`], {
    input: text,
    encoding: 'utf8',
  });
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

const check = process.argv.includes('--check');
const outputs: Record<string, string> = {
  [OPENAPI_PATH]: referenceDocument(),
  [SDK_ERROR_CODES_PATH]: formatted(SDK_ERROR_CODES_PATH, sdkErrorCodes()),
};
let failed = false;
for (const [path, text] of Object.entries(outputs)) {
  if (read(path) === text) continue;
  if (check) {
    console.error(`${path} is stale: run \`npm run openapi\` and commit the result`);
    failed = true;
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}

const released = lastReleased();
const changes = breakingChanges(released.doc, JSON.parse(outputs[OPENAPI_PATH]));
const missing = unnamed(changes, read('CHANGELOG.md') ?? '');
for (const change of changes)
  console.log(
    `${missing.includes(change) ? '✗' : '✓'} breaking since ${released.version}: ${nameOf(change)}`,
  );
if (missing.length) {
  console.error(
    `${missing.length} breaking change(s) since ${released.version} not named in CHANGELOG.md: a list item under \`## Unreleased\` quoting the operation and the field, e.g.\n- ${nameOf(missing[0])} (why, and what partners do instead)`,
  );
  failed = true;
}
if (failed) process.exit(1);
