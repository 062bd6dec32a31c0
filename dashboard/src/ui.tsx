import { CoinApiError } from '@coin/sdk';
import type { ComponentChildren, InputHTMLAttributes, TargetedSubmitEvent } from 'preact';
import { useCallback, useEffect, useId, useState } from 'preact/hooks';

export type FieldErrors = Record<string, string>;

/**
 * The API's validation text names its field first (`coinValue must be …`; several joined by `; `):
 * each goes beside its field, the rest in the form's alert.
 */
export function splitErrors(
  err: unknown,
  fields: readonly string[],
): { fields: FieldErrors; general?: string } {
  if (!(err instanceof CoinApiError))
    return { fields: {}, general: (err as Error)?.message ?? 'something went wrong' };
  const out: FieldErrors = {};
  const rest: string[] = [];
  for (const part of err.error.split('; ')) {
    const field = fields.find((f) => part === f || part.startsWith(`${f} `) || part.startsWith(`${f}[`));
    if (field && err.status === 400) out[field] = part;
    else rest.push(part);
  }
  return { fields: out, general: rest.length ? rest.join('; ') : undefined };
}

export function Field(props: {
  label: string;
  name: string;
  error?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number';
  value?: string;
  required?: boolean;
  autocomplete?: string;
  placeholder?: string;
  step?: string;
}) {
  const id = useId();
  const { label, error, type = 'text', ...input } = props;
  // Preact 11 types each input type's attributes apart; these fields only use common ones.
  const attrs = {
    id,
    type,
    ...input,
    'aria-invalid': error ? 'true' : undefined,
    'aria-describedby': error ? `${id}-error` : undefined,
  } as unknown as InputHTMLAttributes<HTMLInputElement>;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input {...attrs} />
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

export function Select(props: {
  label: string;
  name: string;
  value?: string;
  options: [string, string][];
  onChange?: (v: string) => void;
}) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        onChange={(e) => props.onChange?.(e.currentTarget.value)}
      >
        {props.options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Alert(props: { children?: ComponentChildren; kind?: 'error' | 'ok' }) {
  if (!props.children) return null;
  return (
    <p role={props.kind === 'ok' ? 'status' : 'alert'} class={props.kind === 'ok' ? 'ok' : 'error'}>
      {props.children}
    </p>
  );
}

/** A form whose submit calls `action` with its values; errors land beside fields or in its alert. */
export function Form(props: {
  label: string;
  fields: readonly string[];
  action: (values: Record<string, string>, form: HTMLFormElement) => Promise<string | undefined>;
  submit: string;
  children: (errors: FieldErrors) => ComponentChildren;
}) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
    setBusy(true);
    setDone(undefined);
    try {
      setDone(await props.action(values, form));
      setErrors({});
      setGeneral(undefined);
    } catch (err) {
      const split = splitErrors(err, props.fields);
      setErrors(split.fields);
      setGeneral(split.general);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label={props.label} onSubmit={onSubmit} noValidate>
      {props.children(errors)}
      <Alert>{general}</Alert>
      <Alert kind="ok">{done}</Alert>
      <button type="submit" disabled={busy}>
        {props.submit}
      </button>
    </form>
  );
}

/** Loads on mount and whenever `deps` change; `reload` loads again (after a change). */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]) {
  const [state, setState] = useState<{ data?: T; error?: string }>({});
  const run = useCallback(() => {
    load().then(
      (data) => setState({ data }),
      (err: Error) => setState({ error: err instanceof CoinApiError ? err.error : err.message }),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, reload: run };
}

export function Pager(props: { page: number; lastpage: number; onPage: (p: number) => void; label: string }) {
  return (
    <nav class="pager" aria-label={`${props.label} pages`}>
      <button type="button" disabled={props.page <= 1} onClick={() => props.onPage(props.page - 1)}>
        Previous page
      </button>
      <span>
        Page {props.page} of {props.lastpage}
      </span>
      <button
        type="button"
        disabled={props.page >= props.lastpage}
        onClick={() => props.onPage(props.page + 1)}
      >
        Next page
      </button>
    </nav>
  );
}

export function Page(props: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${props.title} · Coin rewards dashboard`;
  }, [props.title]);
  return (
    <>
      <h1>{props.title}</h1>
      {props.children}
    </>
  );
}
