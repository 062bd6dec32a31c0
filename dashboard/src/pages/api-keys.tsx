import { useState } from 'preact/hooks';
import { FormSection, labelled } from '../form.tsx';
import { useAction, useLoad } from '../load.tsx';
import { api } from '../session.ts';
import { at, code, ListTable } from '../table.tsx';
import { Page, Section } from '../ui.tsx';

function NewSecret(props: { name: string; secret: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div class="secret" role="status">
      <p>
        The secret of <strong>{props.name}</strong>, shown this once: store it now.
      </p>
      <code data-testid="new-key">{props.secret}</code>{' '}
      <button
        type="button"
        onClick={async () => {
          await navigator.clipboard.writeText(props.secret);
          setCopied(true);
        }}
      >
        Copy key
      </button>
      {copied && <span> Copied.</span>}
    </div>
  );
}

export function ApiKeys() {
  const keys = useLoad(() => api.listApiKeys(), []);
  const revoke = useAction(keys.reload);
  const [created, setCreated] = useState<{ name: string; key: string }>();
  return (
    <Page title="API keys">
      <FormSection
        label="Create a key"
        fields={labelled({ name: 'Key name' })}
        submit="Create key"
        added={keys.reload}
        action={async (v) => setCreated(await api.createApiKey({ name: v.name }))}
        after={created && <NewSecret key={created.key} name={created.name} secret={created.key} />}
      />
      <Section title="Your keys">
        <ListTable
          list={keys}
          failure={revoke.failure}
          columns={[
            { head: 'Name', cell: (k) => k.name },
            { head: 'Prefix', cell: (k) => code(`${k.prefix}…`) },
            { head: 'Created', cell: (k) => at(k.createdAt) },
            { head: 'Last used', cell: (k) => at(k.lastUsedAt, 'never') },
            {
              head: 'State',
              cell: (k) =>
                k.revokedAt ? (
                  'revoked'
                ) : (
                  <button
                    type="button"
                    aria-label={`Revoke ${k.name}`}
                    onClick={() => revoke.run(() => api.revokeApiKey({ id: k.id }))}
                  >
                    Revoke
                  </button>
                ),
            },
          ]}
        />
      </Section>
    </Page>
  );
}
