import { useState } from 'preact/hooks';
import { Form } from '../form.tsx';
import { Link } from '../router.tsx';
import { api } from '../session.ts';
import { Page } from '../ui.tsx';

/** The invitation link's token: after `#token=`, so it never reaches a server's logs. */
const tokenOf = () => new URLSearchParams(location.hash.slice(1)).get('token') ?? '';

export function AcceptInvite() {
  const [joined, setJoined] = useState<string>();
  return (
    <Page title="Join your team">
      {joined ? (
        <p role="status">
          Welcome: you are a member. <Link to="/">Sign in</Link> as {joined}.
        </p>
      ) : (
        <Form
          label="Accept the invitation"
          fields={[
            { name: 'password', label: 'Choose a password', type: 'password', autocomplete: 'new-password' },
            {
              name: 'confirmPassword',
              label: 'Confirm password',
              type: 'password',
              autocomplete: 'new-password',
            },
          ]}
          submit="Join the team"
          action={async (v) => {
            const member = await api.acceptInvite({
              token: tokenOf(),
              password: v.password,
              confirmPassword: v.confirmPassword,
            });
            setJoined(member.email);
          }}
        />
      )}
    </Page>
  );
}
