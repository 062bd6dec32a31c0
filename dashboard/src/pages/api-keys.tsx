import { useState } from 'preact/hooks';
import { api } from '../session.ts';
import { Alert, Field, Form, Page, useLoad } from '../ui.tsx';

export function ApiKeys() {
  const keys = useLoad(() => api.listApiKeys(), []);
  const [created, setCreated] = useState<{ name: string; key: string }>();
  const [copied, setCopied] = useState(false);
  return (
    <Page title="API keys">
      <section aria-labelledby="new-key">
        <h2 id="new-key">Create a key</h2>
        <Form
          label="Create a key"
          fields={['name']}
          submit="Create key"
          action={async (v, form) => {
            const key = await api.createApiKey({ name: v.name });
            setCreated({ name: key.name, key: key.key });
            setCopied(false);
            form.reset();
            keys.reload();
            return undefined;
          }}
        >
          {(e) => <Field label="Key name" name="name" error={e.name} />}
        </Form>
        {created && (
          <div class="secret" role="status">
            <p>
              The secret of <strong>{created.name}</strong>, shown this once: store it now.
            </p>
            <code data-testid="new-key">{created.key}</code>{' '}
            <button
              type="button"
              onClick={async () => {
                await navigator.clipboard.writeText(created.key);
                setCopied(true);
              }}
            >
              Copy key
            </button>
            {copied && <span> Copied.</span>}
          </div>
        )}
      </section>
      <section aria-labelledby="keys">
        <h2 id="keys">Your keys</h2>
        <Alert>{keys.error}</Alert>
        <table>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Prefix</th>
              <th scope="col">Created</th>
              <th scope="col">Last used</th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {keys.data?.data.map((k) => (
              <tr key={k.id}>
                <td>{k.name}</td>
                <td>
                  <code>{k.prefix}…</code>
                </td>
                <td>{new Date(k.createdAt).toLocaleString()}</td>
                <td>{k.lastUsedAt ? new Date(k.lastUsedAt).toLocaleString() : 'never'}</td>
                <td>
                  {k.revokedAt ? (
                    'revoked'
                  ) : (
                    <button
                      type="button"
                      aria-label={`Revoke ${k.name}`}
                      onClick={async () => {
                        await api.revokeApiKey({ id: k.id });
                        keys.reload();
                      }}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Page>
  );
}
