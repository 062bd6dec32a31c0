import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documents, type Problem } from './files.ts';

/** What the contracts define, the figures the documents may state. */
export interface ApiFigures {
  /** Operations a partner calls over HTTP. */
  httpOperations: number;
  /** Operations only services call, over NATS. */
  internalOperations: number;
  /** HTTP method and path pairs (an operation may answer more than one method). */
  methodPathPairs: number;
  /** Kinds of webhook events. */
  eventKinds: number;
}

const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];
const NUMBER = `(\\d[\\d,]*|${WORDS.join('|')})`;

/** A stated figure and what it must equal. */
const STATEMENTS: { pattern: RegExp; of: keyof ApiFigures; what: string }[] = [
  {
    pattern: new RegExp(
      `\\b${NUMBER}\\s+(?:HTTP\\s+|partner(?:-facing)?\\s+|public\\s+)?operations\\b(?!['’])`,
      'gi',
    ),
    of: 'httpOperations',
    what: 'HTTP operations',
  },
  {
    pattern: new RegExp(`\\b${NUMBER}\\s+internal\\s+operations\\b`, 'gi'),
    of: 'internalOperations',
    what: 'internal operations',
  },
  {
    pattern: new RegExp(`\\b${NUMBER}\\s+method\\s+and\\s+path\\s+pairs\\b`, 'gi'),
    of: 'methodPathPairs',
    what: 'method and path pairs',
  },
  {
    pattern: new RegExp(
      `\\b${NUMBER}\\s+(?:(?:webhook\\s+)?event\\s+kinds|webhook\\s+kinds|kinds\\s+of\\s+(?:webhook\\s+)?events?)\\b`,
      'gi',
    ),
    of: 'eventKinds',
    what: 'webhook event kinds',
  },
];

/** Documents that record the past as it was: the changelog, decision records, the original specification. */
const HISTORY = /^(CHANGELOG\.md|docs\/decisions\/|docs\/specification\.md)/;

function numberOf(text: string): number {
  const word = WORDS.indexOf(text.toLowerCase());
  return word >= 0 ? word : Number(text.replace(/,/g, ''));
}

/** Every count of the API a document states (operations, webhook event kinds) equals the contracts'. */
export function checkApiFigures(root: string, figures: ApiFigures): Problem[] {
  const problems: Problem[] = [];
  for (const file of documents(root).filter((f) => !HISTORY.test(f))) {
    readFileSync(join(root, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        for (const s of STATEMENTS) {
          for (const m of text.matchAll(s.pattern)) {
            const stated = numberOf(m[1]);
            if (stated !== figures[s.of])
              problems.push({
                file,
                line: i + 1,
                message: `says "${m[0]}", but the contracts define ${figures[s.of]} ${s.what}`,
              });
          }
        }
      });
  }
  return problems;
}
