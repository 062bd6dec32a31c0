/**
 * A board is one ranking of one partner: `coins:YYYY-MM` (coins credited in that UTC calendar
 * month) or `points` (all-time points).
 */
export interface BoardRef {
  partnerId: string;
  board: string;
}

export const POINTS_BOARD = 'points';

export function coinBoard(year: number, month: number): string {
  return `coins:${year}-${String(month).padStart(2, '0')}`;
}

/** The coin board of the UTC calendar month of an ISO timestamp. */
export function coinBoardAt(iso: string): string {
  const at = new Date(iso);
  return coinBoard(at.getUTCFullYear(), at.getUTCMonth() + 1);
}

export function boardKey(ref: BoardRef): string {
  return `${ref.partnerId}/${ref.board}`;
}
