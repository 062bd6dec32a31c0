import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useEffect, useId } from 'preact/hooks';

export interface FieldProps {
  label: string;
  name: string;
  error?: string;
  type?: 'text' | 'email' | 'password' | 'url' | 'number';
  /**
   * What the field shows until the partner types: a `value` would be written back into the input on
   * every render of the page (Preact sets a differing DOM value), wiping what was typed whenever a list
   * beside the form finished loading. The form reads what is typed when it is submitted.
   */
  defaultValue?: string;
  required?: boolean;
  autocomplete?: string;
  placeholder?: string;
  step?: string;
}

export function Field(props: FieldProps) {
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
      <FieldError id={`${id}-error`}>{error}</FieldError>
    </div>
  );
}

export function FieldError(props: { id?: string; children?: string }) {
  if (!props.children) return null;
  return (
    <p id={props.id} class="field-error">
      {props.children}
    </p>
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

/** A titled part of a page: a region named by its heading. */
export function Section(props: { title: string; children: ComponentChildren }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** The "Show" choice above a list: its values, each with the text shown. */
export function StatusFilter<S extends string>(props: {
  value: S;
  options: Record<S, string>;
  onChange: (status: S) => void;
}) {
  return (
    <Select
      label="Show"
      name="status"
      value={props.value}
      options={Object.entries(props.options) as [S, string][]}
      onChange={(v) => props.onChange(v as S)}
    />
  );
}
