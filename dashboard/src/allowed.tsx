import type { Permission } from '@coin/contracts';
import { useSession } from './session.ts';

/** What the member may not do here, in a sentence, or undefined when their role allows it. */
export function useLacking(permission: Permission, what: string): string | undefined {
  const session = useSession();
  if (session.can(permission)) return undefined;
  return `Your role (${session.member?.role}) cannot ${what}: that needs the '${permission}' permission.`;
}

/** The sentence above the buttons a role cannot use (they are disabled, not hidden, so it is clear why). */
export function RoleNote(props: { text?: string }) {
  if (!props.text) return null;
  return <p class="note">{props.text}</p>;
}
