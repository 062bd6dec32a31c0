/**
 * `npm run openapi`: writes what is generated from the contracts' HTTP operations and documented
 * errors: the SDK's `appErrorCode` types. `--check` writes nothing and exits 1 naming every file
 * that differs from what the contracts generate now (`npm run lint` runs it).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { SDK_ERROR_CODES_PATH, sdkErrorCodes } from './reference/sdk-error-codes.ts';

/** Biome's formatting of TypeScript text, so a generated file reads like the code beside it. */
function formatted(path: string, text: string): string {
  return execFileSync('node_modules/.bin/biome', ['format', `--stdin-file-path=${path}`], {
    input: text,
    encoding: 'utf8',
  });
}

const outputs: Record<string, string> = {
  [SDK_ERROR_CODES_PATH]: formatted(SDK_ERROR_CODES_PATH, sdkErrorCodes()),
};

const check = process.argv.includes('--check');
const stale: string[] = [];
for (const [path, text] of Object.entries(outputs)) {
  let current: string | undefined;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === text) continue;
  if (check) stale.push(path);
  else {
    writeFileSync(path, text);
    console.log(`wrote ${path}`);
  }
}
if (stale.length) {
  console.error(`${stale.join(', ')}: stale; run \`npm run openapi\` and commit the result`);
  process.exit(1);
}
