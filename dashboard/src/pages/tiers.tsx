import { Form, FormSection } from '../form.tsx';
import { useLoad } from '../load.tsx';
import { api } from '../session.ts';
import { code, ListTable } from '../table.tsx';
import { FieldError, Page, Section, Select } from '../ui.tsx';

export function Tiers() {
  const tiers = useLoad(() => api.listTiers({ limit: 100 }), []);
  return (
    <Page title="Tiers">
      <FormSection
        label="Create a tier"
        fields={[
          { name: 'name', label: 'Tier name' },
          { name: 'rank', label: 'Rank', type: 'number' },
        ]}
        submit="Create tier"
        requires={['rules', 'create tiers']}
        added={tiers.reload}
        action={async (v) =>
          `Tier ${(await api.createTier({ name: v.name, rank: Number(v.rank) })).name} created.`
        }
      />
      <Section title="Your tiers">
        <ListTable
          list={tiers}
          columns={[
            { head: 'Rank', cell: (t) => t.rank },
            { head: 'Name', cell: (t) => t.name },
            { head: 'Id', cell: (t) => code(t.id) },
          ]}
        />
      </Section>
      <Section title="Move a user">
        <MoveUser tiers={tiers.data?.data ?? []} />
      </Section>
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
      fields={[props.userId ? { name: 'userId' } : { name: 'userId', label: 'User id' }, { name: 'tierId' }]}
      submit="Move user"
      requires={['users', 'move users between tiers']}
      action={async (v) => {
        await api.upgradeTier({ userId: props.userId ?? v.userId, tierId: v.tierId });
        props.onMoved?.();
        return 'User moved.';
      }}
    >
      {(e) => (
        <>
          <Select label="Tier" name="tierId" options={props.tiers.map((t) => [t.id, t.name])} />
          <FieldError>{e.tierId}</FieldError>
        </>
      )}
    </Form>
  );
}
