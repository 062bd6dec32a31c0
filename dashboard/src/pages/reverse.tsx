import { useEffect, useId, useRef } from 'preact/hooks';
import { Form } from '../form.tsx';
import type { api } from '../session.ts';

type Entry = Awaited<ReturnType<typeof api.getUserTransactions>>['data'][number];

/** Entries a reversal can correct: not a reversal itself, not reversed already. */
export const reversible = (e: Entry) => e.transactionType !== 'reversal' && !e.refunded;

/**
 * Asks for the reason and a confirmation before a reversal: a modal dialog (focus kept inside,
 * Escape cancels) saying what the correcting entry will do.
 */
export function ReverseDialog(props: {
  entry: Entry;
  reverse: (reason: string) => Promise<void>;
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const title = useId();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  const { entry } = props;
  const back = entry.debitOrCredit === 'CR' ? 'from the user back to you' : 'from you back to the user';
  return (
    <dialog ref={dialog} aria-labelledby={title} onClose={props.onClose}>
      <h2 id={title}>Reverse {entry.coins} coins?</h2>
      <p>
        A correcting entry moves {entry.coins} coins {back}. “{entry.narration}” stays in the history, marked
        reversed. An entry is reversed once, and a reversal cannot be undone.
      </p>
      <Form
        label="Reverse the entry"
        fields={[{ name: 'reason', label: 'Reason (kept with the reversal)' }]}
        submit={`Reverse ${entry.coins} coins`}
        action={async (v) => {
          if (!v.reason?.trim()) throw new Error('give the reason for the reversal');
          await props.reverse(v.reason.trim());
          dialog.current?.close();
        }}
      />
      <button type="button" class="secondary" onClick={() => dialog.current?.close()}>
        Cancel
      </button>
    </dialog>
  );
}
