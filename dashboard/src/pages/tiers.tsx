import { api } from '../session.ts';
import { Alert, Field, Form, Page, Select, useLoad } from '../ui.tsx';

export function Tiers() {
  const tiers = useLoad(() => api.listTiers({ limit: 100 }), []);
  return (
    <Page title="Tiers">
      <section aria-labelledby="new-tier">
        <h2 id="new-tier">Create a tier</h2>
        <Form
          label="Create a tier"
          fields={['name', 'rank']}
          submit="Create tier"
          action={async (v, form) => {
            const tier = await api.createTier({ name: v.name, rank: Number(v.rank) });
            form.reset();
            tiers.reload();
            return `Tier ${tier.name} created.`;
          }}
        >
          {(e) => (
            <>
              <Field label="Tier name" name="name" error={e.name} />
              <Field label="Rank" name="rank" type="number" error={e.rank} />
            </>
          )}
        </Form>
      </section>
      <section aria-labelledby="tier-list">
        <h2 id="tier-list">Your tiers</h2>
        <Alert>{tiers.error}</Alert>
        <table>
          <thead>
            <tr>
              <th scope="col">Rank</th>
              <th scope="col">Name</th>
              <th scope="col">Id</th>
            </tr>
          </thead>
          <tbody>
            {tiers.data?.data.map((t) => (
              <tr key={t.id}>
                <td>{t.rank}</td>
                <td>{t.name}</td>
                <td>
                  <code>{t.id}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <section aria-labelledby="move">
        <h2 id="move">Move a user</h2>
        <MoveUser tiers={tiers.data?.data ?? []} />
      </section>
    </Page>
  );
}

export function MoveUser(props: {
  tiers: { id: string; name: string }[];
  userId?: string;
  onMoved?: () => void;
}) {
  return (
    <Form
      label="Move a user to a tier"
      fields={['userId', 'tierId']}
      submit="Move user"
      action={async (v) => {
        await api.upgradeTier({ userId: props.userId ?? v.userId, tierId: v.tierId });
        props.onMoved?.();
        return 'User moved.';
      }}
    >
      {(e) => (
        <>
          {!props.userId && <Field label="User id" name="userId" error={e.userId} />}
          <Select label="Tier" name="tierId" options={props.tiers.map((t) => [t.id, t.name])} />
          {e.tierId && <p class="field-error">{e.tierId}</p>}
        </>
      )}
    </Form>
  );
}
