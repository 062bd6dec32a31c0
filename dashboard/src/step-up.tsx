import { CoinApiError } from '@coin/sdk';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Form } from './form.tsx';
import { confirmPassword } from './session.ts';

/** The one dialog open at a time: resolves true once the password was confirmed, false if cancelled. */
let ask: ((done: (confirmed: boolean) => void) => void) | undefined;

/**
 * Runs `change`; when the API wants a recent password first (STEP_UP_REQUIRED, for credential and
 * money-policy changes), asks for it in a dialog, signs in again and runs it once more.
 */
export async function withStepUp<T>(change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (err) {
    if (!(err instanceof CoinApiError && err.appErrorCode === 'STEP_UP_REQUIRED') || !ask) throw err;
    const confirmed = await new Promise<boolean>((done) => ask!(done));
    if (!confirmed) throw err;
    return change();
  }
}

/** Mounted once by the app: the dialog `withStepUp` opens. */
export function StepUpDialog() {
  const [pending, setPending] = useState<(confirmed: boolean) => void>();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    ask = (done) => setPending(() => done);
    return () => {
      ask = undefined;
    };
  }, []);
  useEffect(() => {
    if (pending) dialog.current?.showModal();
  }, [pending]);
  const close = (confirmed: boolean) => {
    pending?.(confirmed);
    setPending(undefined);
    dialog.current?.close();
  };
  if (!pending) return null;
  return (
    <dialog ref={dialog} aria-labelledby="step-up-title" onCancel={() => close(false)}>
      <h2 id="step-up-title">Confirm with your password</h2>
      <p>This change needs your password entered in the last five minutes.</p>
      <Form
        label="Confirm with your password"
        fields={[
          { name: 'password', label: 'Your password', type: 'password', autocomplete: 'current-password' },
        ]}
        submit="Confirm"
        action={async (v) => {
          await confirmPassword(v.password);
          close(true);
        }}
      />
      <button type="button" class="secondary" onClick={() => close(false)}>
        Cancel
      </button>
    </dialog>
  );
}
