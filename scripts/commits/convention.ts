/**
 * The commit convention (CONTRIBUTING.md): a subject of at most 72 characters, `area: what changed`,
 * and, when there is a body, a blank line between them. Two rules, so a short module rather than
 * commitlint: its shared configurations encode Conventional Commits' fixed types (`feat:`, `fix:`),
 * where our area is free (`wallet:`, `deploy test:`), so it would take custom rules anyway, and it
 * would put its dependency tree in the lock for a check that fits in a screen.
 */
const SUBJECT_MAX = 72;

/** `area: what changed`: an area of a few words (letters, digits, `._/-`), a colon, a space, text. */
const SUBJECT = /^[A-Za-z0-9][A-Za-z0-9 ._/-]{0,29}: \S/;

/** What is wrong with a commit message, as sentences; empty when it follows the convention. */
export function messageProblems(message: string): string[] {
  const lines = message.replace(/\s+$/, '').split('\n');
  const subject = lines[0] ?? '';
  const problems: string[] = [];
  if (subject.trim() === '') return ['the subject is empty'];
  if (subject.length > SUBJECT_MAX)
    problems.push(
      `the subject is ${subject.length} characters, more than ${SUBJECT_MAX}: put the rest in the body`,
    );
  if (!SUBJECT.test(subject))
    problems.push("the subject does not read 'area: what changed' (e.g. 'wallet: …')");
  if (lines.length > 1 && lines[1].trim() !== '')
    problems.push('the subject and the body need a blank line between them');
  return problems;
}

/**
 * The message as git will record it from the file the commit-msg hook is given: `#` lines and
 * everything under the scissors line dropped (git's default clean-up of an edited message).
 */
export function cleanedMessage(file: string): string {
  const scissors = file.indexOf('# ------------------------ >8 ------------------------');
  const text = scissors >= 0 ? file.slice(0, scissors) : file;
  return text
    .split('\n')
    .filter((l) => !l.startsWith('#'))
    .join('\n')
    .replace(/^\s*\n/, '');
}
