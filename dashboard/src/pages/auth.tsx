import { type FieldSpec, Form } from '../form.tsx';
import { Link, navigate } from '../router.tsx';
import { api, signIn } from '../session.ts';
import { Page } from '../ui.tsx';

const email: FieldSpec = { name: 'email', label: 'E-mail', type: 'email', autocomplete: 'username' };
const password = (name: string, label: string, autocomplete: string): FieldSpec => ({
  name,
  label,
  type: 'password',
  autocomplete,
});

/** Signs in and opens the overview. */
async function enter(v: Record<string, string>): Promise<void> {
  await signIn(v.email, v.password);
  navigate('/dashboard');
}

export function SignIn() {
  return (
    <Page title="Sign in">
      <Form
        label="Sign in"
        fields={[email, password('password', 'Password', 'current-password')]}
        submit="Sign in"
        action={enter}
      />
      <p>
        New here? <Link to="/sign-up">Create a partner account</Link>
      </p>
    </Page>
  );
}

const SIGN_UP_FIELDS = [
  { name: 'applicationName', label: 'Application name' },
  { name: 'partnerName', label: 'Business name' },
  email,
  password('password', 'Password', 'new-password'),
  password('confirmPassword', 'Confirm password', 'new-password'),
  { name: 'redirectUrl', label: 'Redirect URL', type: 'url' },
  { name: 'webRedirectUrl', label: 'Web redirect URL', type: 'url' },
  { name: 'mobileRedirectUrl', label: 'Mobile redirect URL' },
  { name: 'userDetailsUrl', label: 'User details URL', type: 'url' },
] satisfies FieldSpec[];

type SignUpBody = Parameters<typeof api.registerPartner>[0];

export function SignUp() {
  return (
    <Page title="Create a partner account">
      <Form
        label="Sign up"
        fields={SIGN_UP_FIELDS}
        submit="Create account"
        action={async (v) => {
          await api.registerPartner(
            Object.fromEntries(SIGN_UP_FIELDS.map((f) => [f.name, v[f.name] ?? ''])) as SignUpBody,
          );
          await enter(v);
        }}
      />
      <p>
        Have an account? <Link to="/">Sign in</Link>
      </p>
    </Page>
  );
}
