import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { CODE_DIRS, documents, type Problem, sourcesUnder } from './files.ts';

/**
 * An issue or pull-request number means nothing to a reader of the repository: documents and
 * comments say what the target is instead. Found: the word issue or pull request (or PR) followed
 * by a number, and a bare hash-number. A hash-number glued to a name (`owner/repo#N`, an upstream
 * bug a reader can look up; `wallet#1`, a replica) is not one.
 */
const PATTERNS = [/\b(issues?|pull requests?|PRs?)\s+#?\d+/i, /(^|[\s([{,;:'"`])#\d+\b/];

function mentions(text: string): string | undefined {
  for (const p of PATTERNS) {
    const m = p.exec(text);
    if (m) return m[0].trim();
  }
  return undefined;
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** Every comment of a TypeScript file with its line (strings and templates are code, not comments). */
function tsComments(text: string, tsx: boolean): { line: number; text: string }[] {
  const scanner = ts.createScanner(
    ts.ScriptTarget.Latest,
    false,
    tsx ? ts.LanguageVariant.JSX : ts.LanguageVariant.Standard,
    text,
  );
  const out: { line: number; text: string }[] = [];
  for (let kind = scanner.scan(); kind !== ts.SyntaxKind.EndOfFileToken; kind = scanner.scan()) {
    if (kind === ts.SyntaxKind.SingleLineCommentTrivia || kind === ts.SyntaxKind.MultiLineCommentTrivia)
      out.push({ line: lineOf(text, scanner.getTokenStart()), text: scanner.getTokenText() });
  }
  return out;
}

/** The `--` comments of a SQL file (a migration's header and its inline notes). */
function sqlComments(text: string): { line: number; text: string }[] {
  return text.split('\n').flatMap((l, i) => {
    const at = l.indexOf('--');
    return at >= 0 ? [{ line: i + 1, text: l.slice(at) }] : [];
  });
}

export function checkIssueNumbers(root: string): Problem[] {
  const problems: Problem[] = [];
  for (const file of documents(root)) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        const found = mentions(text);
        if (found)
          problems.push({
            file,
            line: i + 1,
            message: `names an issue number ("${found}"): say what the target is`,
          });
      });
  }
  for (const dir of CODE_DIRS) {
    for (const file of sourcesUnder(root, dir, ['.ts', '.tsx', '.sql'])) {
      const text = readFileSync(join(root, file), 'utf8');
      const comments = file.endsWith('.sql') ? sqlComments(text) : tsComments(text, file.endsWith('.tsx'));
      for (const c of comments) {
        c.text.split('\n').forEach((l, i) => {
          const found = mentions(l);
          if (found)
            problems.push({
              file,
              line: c.line + i,
              message: `a comment names an issue number ("${found}"): say what the target is`,
            });
        });
      }
    }
  }
  return problems;
}
