import { z } from 'zod';

/** No control character (C0, DEL, C1: `Cc`) in a single-line field; Postgres refuses NUL outright. */
const SINGLE_LINE = /^\P{Cc}*$/u;
/** The same, except tab, line feed and carriage return, for fields that document line breaks. */
const MULTI_LINE = /^(?:\P{Cc}|[\t\n\r])*$/u;

export interface TextOptions {
  /** Fewest characters after trimming; 1 unless said otherwise. */
  min?: number;
  max: number;
  /** Allows tab, line feed and carriage return. */
  multiline?: boolean;
  /** Keeps leading and trailing white space (secrets are compared as sent). */
  keepSpaces?: boolean;
}

/**
 * Every free-text request field: trimmed, bounded in length, no control characters (line breaks
 * only where `multiline` says so) and no unpaired surrogate, which would reach the database as an
 * invalid character.
 */
export function text({ min = 1, max, multiline = false, keepSpaces = false }: TextOptions) {
  const base = keepSpaces ? z.string() : z.string().trim();
  return base
    .min(min)
    .max(max)
    .regex(multiline ? MULTI_LINE : SINGLE_LINE, {
      error: multiline
        ? 'must not contain control characters other than tab and line breaks'
        : 'must not contain control characters',
    })
    .refine((s) => s.isWellFormed(), { error: 'must be valid Unicode text' });
}
