/**
 * A sub-command's work with the positionals after its name; it resolves to `'usage'` instead when
 * they do not fit it (anything else it resolves to is ignored).
 */
export type Subcommand = (args: string[]) => Promise<unknown>;

/**
 * An operator command made of sub-commands (`<name> <args>…`): runs the one `positionals` names
 * and sets the exit code: 2, with `usage` on stderr, when no sub-command fits; 1, with the reason
 * on stderr, when it fails.
 */
export async function runSubcommand(
  usage: string,
  positionals: readonly string[],
  subcommands: Record<string, Subcommand>,
): Promise<void> {
  const [name, ...args] = positionals;
  const subcommand = name !== undefined && Object.hasOwn(subcommands, name) ? subcommands[name] : undefined;
  try {
    if (subcommand && (await subcommand(args)) !== 'usage') return;
    console.error(usage);
    process.exitCode = 2;
  } catch (err) {
    console.error((err as Error).message);
    process.exitCode = 1;
  }
}
