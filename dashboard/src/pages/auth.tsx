import { Link, navigate } from '../router.tsx';
import { api, signIn } from '../session.ts';
import { Field, Form, Page } from '../ui.tsx';

export function SignIn() {
  return (
    <Page title="Sign in">
      <Form
        label="Sign in"
        fields={['email', 'password']}
        submit="Sign in"
        action={async (v) => {
          await signIn(v.email, v.password);
          navigate('/dashboard');
          return undefined;
        }}
      >
        {(e) => (
          <>
            <Field label="E-mail" name="email" type="email" autocomplete="username" error={e.email} />
            <Field
              label="Password"
              name="password"
              type="password"
              autocomplete="current-password"
              error={e.password}
            />
          </>
        )}
      </Form>
      <p>
        New here? <Link to="/sign-up">Create a partner account</Link>
      </p>
    </Page>
  );
}

const SIGN_UP_FIELDS = [
  'applicationName',
  'partnerName',
  'email',
  'password',
  'confirmPassword',
  'redirectUrl',
  'webRedirectUrl',
  'mobileRedirectUrl',
  'userDetailsUrl',
] as const;

export function SignUp() {
  return (
    <Page title="Create a partner account">
      <Form
        label="Sign up"
        fields={SIGN_UP_FIELDS}
        submit="Create account"
        action={async (v) => {
          const body = Object.fromEntries(SIGN_UP_FIELDS.map((f) => [f, v[f] ?? ''])) as Record<
            (typeof SIGN_UP_FIELDS)[number],
            string
          >;
          await api.registerPartner(body);
          await signIn(v.email, v.password);
          navigate('/dashboard');
          return undefined;
        }}
      >
        {(e) => (
          <>
            <Field label="Application name" name="applicationName" error={e.applicationName} />
            <Field label="Business name" name="partnerName" error={e.partnerName} />
            <Field label="E-mail" name="email" type="email" autocomplete="username" error={e.email} />
            <Field
              label="Password"
              name="password"
              type="password"
              autocomplete="new-password"
              error={e.password}
            />
            <Field
              label="Confirm password"
              name="confirmPassword"
              type="password"
              autocomplete="new-password"
              error={e.confirmPassword}
            />
            <Field label="Redirect URL" name="redirectUrl" type="url" error={e.redirectUrl} />
            <Field label="Web redirect URL" name="webRedirectUrl" type="url" error={e.webRedirectUrl} />
            <Field label="Mobile redirect URL" name="mobileRedirectUrl" error={e.mobileRedirectUrl} />
            <Field label="User details URL" name="userDetailsUrl" type="url" error={e.userDetailsUrl} />
          </>
        )}
      </Form>
      <p>
        Have an account? <Link to="/">Sign in</Link>
      </p>
    </Page>
  );
}
