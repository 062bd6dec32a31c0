/**
 * The commit-msg hook's check (`.githooks/commit-msg`, installed by `make install`):
 * `node scripts/commits/commit-msg.ts <message file>` refuses a message that breaks the convention,
 * saying why. A `fixup!`, `squash!` or `amend!` commit passes: it is folded into its target before it
 * lands, and the history check refuses it if it is not.
 */
import { readFileSync } from 'node:fs';
import { cleanedMessage, messageProblems } from './convention.ts';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/commits/commit-msg.ts <commit message file>');
  process.exit(2);
}
const message = cleanedMessage(readFileSync(file, 'utf8'));
if (/^(fixup|squash|amend)! /.test(message)) process.exit(0);
const problems = messageProblems(message);
if (problems.length > 0) {
  console.error(`commit refused: ${problems.join('; ')}.`);
  console.error(`  subject: ${message.split('\n')[0]}`);
  console.error(
    "  The convention (CONTRIBUTING.md): 'area: what changed' in at most 72 characters; the body says why.",
  );
  console.error(`  Your message is kept in ${file}: git commit -e -F ${file}`);
  process.exit(1);
}
