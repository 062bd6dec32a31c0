import Papa from 'papaparse';

export interface OnboardRow {
  userId: string;
  userData: Record<string, string>;
}

/** A CSV with a header row: `userId` first, then one column per `userData` key. */
export function usersFromCsv(text: string): OnboardRow[] {
  const parsed = Papa.parse<Record<string, string>>(text.trim(), { header: true, skipEmptyLines: true });
  const [problem] = parsed.errors;
  if (problem) throw new Error(`CSV line ${(problem.row ?? 0) + 2}: ${problem.message}`);
  const [first] = parsed.meta.fields ?? [];
  if (first !== 'userId') throw new Error('the CSV header must start with userId');
  return parsed.data.map(({ userId, ...userData }) => ({ userId, userData }));
}
