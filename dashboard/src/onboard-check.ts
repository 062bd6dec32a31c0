import { partnerOperations } from '@coin/sdk';
import { usersFromCsv } from './csv.ts';

/** The contract's schema of one user of an onboard-users call: what the API would refuse. */
const row = partnerOperations.onboardUsers.schemas.body.shape.users.element;

type OnboardRow = { userId: string; userData: Record<string, unknown> };

/** The users of the form: its CSV file if one is chosen, else the pasted JSON. */
export async function usersFrom(values: Record<string, string>, form: HTMLFormElement): Promise<unknown[]> {
  const file = (form.elements.namedItem('csv') as HTMLInputElement).files?.[0];
  if (file) return usersFromCsv(await file.text());
  if (!values.json?.trim()) throw new Error('paste a JSON array of users or choose a CSV file');
  let parsed: unknown;
  try {
    parsed = JSON.parse(values.json);
  } catch {
    throw new Error('the pasted text is not valid JSON');
  }
  const users = Array.isArray(parsed) ? parsed : (parsed as { users?: unknown })?.users;
  if (!Array.isArray(users)) throw new Error('the JSON must be an array of users or {"users": [...]}');
  return users;
}

/**
 * Each row checked against the contract before anything is sent: the rows, or every problem named
 * by its row (1 is the first user; a CSV's header is not counted).
 */
export function checkRows(users: unknown[]): { rows: OnboardRow[]; problems: string[] } {
  const problems: string[] = [];
  const seen = new Set<string>();
  const rows: OnboardRow[] = [];
  users.forEach((user, i) => {
    const checked = row.safeParse(user);
    if (!checked.success) {
      for (const issue of checked.error.issues)
        problems.push(`Row ${i + 1}: ${[...issue.path].join('.') || 'the row'} ${issue.message}`);
      return;
    }
    if (seen.has(checked.data.userId))
      problems.push(`Row ${i + 1}: userId ${checked.data.userId} is listed twice`);
    seen.add(checked.data.userId);
    rows.push(checked.data);
  });
  if (users.length === 0) problems.push('there are no users to onboard');
  return { rows, problems };
}
