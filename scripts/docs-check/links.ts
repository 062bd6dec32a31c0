import { Writable } from 'node:stream';
import { remark } from 'remark';
import remarkGfm from 'remark-gfm';
import remarkValidateLinks from 'remark-validate-links';
import { engine, type Options } from 'unified-engine';
import { documents, type Problem } from './files.ts';

/**
 * Relative links and anchors of the documents, checked offline by remark-validate-links (a link to
 * a file that does not exist, or to a heading that no file has, GitHub's slugs). It needs
 * unified-engine to see every file at once: an anchor into another document is checked against
 * that document's headings. External URLs are not fetched.
 */
export async function checkLinks(root: string): Promise<Problem[]> {
  const files = documents(root);
  if (files.length === 0) return [];
  const silent = new Writable({ write: (_chunk, _encoding, done) => done() });
  const context = await new Promise<{
    files: { path: string; messages: { line?: number; reason: string }[] }[];
  }>((resolve, reject) =>
    engine(
      {
        processor: remark(),
        cwd: root,
        files,
        plugins: [remarkGfm, [remarkValidateLinks, { repository: false, root }]] as Options['plugins'],
        extensions: ['md'],
        output: false,
        out: false,
        quiet: true,
        color: false,
        streamError: silent,
        ignoreName: '.docs-check-ignore',
      },
      (err, _code, ctx) => (err ? reject(err) : resolve(ctx as never)),
    ),
  );
  return context.files.flatMap((f) =>
    f.messages.map((m) => ({ file: f.path, line: m.line, message: m.reason })),
  );
}
