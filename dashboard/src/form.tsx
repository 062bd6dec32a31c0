import type { Permission } from '@coin/contracts';
import { CoinApiError } from '@coin/sdk';
import type { ComponentChildren, TargetedSubmitEvent } from 'preact';
import { useState } from 'preact/hooks';
import { RoleNote, useLacking } from './allowed.tsx';
import { confirmPassword } from './session.ts';
import { Alert, Field, type FieldProps, Section } from './ui.tsx';

export type FieldErrors = Record<string, string>;

/**
 * A form field: with a `label` the form draws it as an input; without, only its errors are routed
 * (the form's `children` draw it).
 */
export type FieldSpec = { name: string } & Partial<Omit<FieldProps, 'name' | 'error'>>;

/** Text fields by name, each with its label. */
export function labelled(labels: Record<string, string>): FieldSpec[] {
  return Object.entries(labels).map(([name, label]) => ({ name, label }));
}

/**
 * The API's validation text names its field first (`coinValue must be …`; several joined by `; `):
 * each goes beside its field, the rest in the form's alert.
 */
function splitErrors(err: unknown, fields: readonly string[]): { fields: FieldErrors; general?: string } {
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

interface FormProps {
  label: string;
  fields: readonly FieldSpec[];
  /** What it answers, when text, is shown as the form's outcome. */
  action: (values: Record<string, string>, form: HTMLFormElement) => Promise<unknown>;
  submit: string;
  /** For a form that adds something: after success it is cleared and `added` refreshes what shows it. */
  added?: () => void;
  children?: (errors: FieldErrors) => ComponentChildren;
  /** The permission the action needs and what it does ("reverse entries"): without it, the form says so and cannot be sent. */
  requires?: [Permission, string];
}

/** A section of the page that is one form, both named by its `label`; `after` follows the form. */
export function FormSection(props: FormProps & { after?: ComponentChildren }) {
  const { after, ...form } = props;
  return (
    <Section title={props.label}>
      <Form {...form} />
      {after}
    </Section>
  );
}

/** A form whose submit calls `action` with its values; errors land beside fields or in its alert. */
export function Form(props: FormProps) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string>();
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState(false);
  // The API asked for a recent password (a money-policy or credential change): the form asks for it.
  const [stepUp, setStepUp] = useState(false);
  const lacking = useLacking(...(props.requires ?? ['read', '']));
  const onSubmit = async (e: TargetedSubmitEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const values = Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
    setBusy(true);
    setDone(undefined);
    try {
      if (stepUp) {
        await confirmPassword(values.stepUpPassword ?? '');
        setStepUp(false);
      }
      const outcome = await props.action(values, form);
      if (props.added) {
        form.reset();
        props.added();
      }
      setDone(typeof outcome === 'string' ? outcome : undefined);
      setErrors({});
      setGeneral(undefined);
    } catch (err) {
      if (err instanceof CoinApiError && err.appErrorCode === 'STEP_UP_REQUIRED') setStepUp(true);
      const split = splitErrors(
        err,
        props.fields.map((f) => f.name),
      );
      setErrors(split.fields);
      setGeneral(split.general);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form aria-label={props.label} onSubmit={onSubmit} noValidate>
      {props.fields.map(
        ({ label, ...f }) => label && <Field key={f.name} label={label} {...f} error={errors[f.name]} />,
      )}
      {props.children?.(errors)}
      {stepUp && (
        <Field
          name="stepUpPassword"
          label="Your password, to confirm this change"
          type="password"
          autocomplete="current-password"
        />
      )}
      <Alert>{general}</Alert>
      <Alert kind="ok">{done}</Alert>
      <RoleNote text={lacking} />
      <button type="submit" disabled={busy || lacking !== undefined}>
        {props.submit}
      </button>
    </form>
  );
}
