import { PERMISSIONS, ROLE_PERMISSIONS, ROLES, type Role } from '@coin/contracts';
import { useState } from 'preact/hooks';
import { FormSection } from '../form.tsx';
import { useAction, useLoad } from '../load.tsx';
import { api, useSession } from '../session.ts';
import { at, DataTable, ListTable } from '../table.tsx';
import { Page, Section, Select } from '../ui.tsx';

type Member = Awaited<ReturnType<typeof api.listMembers>>['data'][number];

const ROLE_OPTIONS = ROLES.map((r) => [r, r] as [string, string]);

/** A member's role as a choice and the button that saves it; the member's removal beside it. */
function MemberActions(props: {
  member: Member;
  self: boolean;
  run: (change: () => Promise<unknown>) => void;
}) {
  const { member: m } = props;
  const [role, setRole] = useState<Role>(m.role);
  return (
    <div class="row">
      <Select
        label={`Role of ${m.email}`}
        name="role"
        value={role}
        options={ROLE_OPTIONS}
        onChange={(v) => setRole(v as Role)}
      />
      <button
        type="button"
        aria-label={`Change role of ${m.email}`}
        disabled={role === m.role}
        onClick={() => props.run(() => api.updateMemberRole({ id: m.id, role }))}
      >
        Change role
      </button>
      <button
        type="button"
        class="secondary"
        aria-label={props.self ? 'Leave the team' : `Remove ${m.email}`}
        onClick={() => props.run(() => api.removeMember({ id: m.id }))}
      >
        {props.self ? 'Leave the team' : 'Remove'}
      </button>
    </div>
  );
}

/** What each role may do: the same table the gateway enforces. */
function RoleTable() {
  return (
    <details>
      <summary>What each role may do</summary>
      <DataTable
        label="Permissions of each role"
        rows={[...ROLES]}
        rowKey={(r) => r}
        columns={[
          { head: 'Role', cell: (r) => r },
          ...PERMISSIONS.map((p) => ({
            head: p,
            cell: (r: Role) => (ROLE_PERMISSIONS[r].includes(p) ? 'yes' : 'no'),
          })),
        ]}
      />
    </details>
  );
}

export function Team() {
  const session = useSession();
  const members = useLoad(() => api.listMembers(), []);
  const invites = useLoad(() => api.listInvites(), []);
  const change = useAction(() => {
    members.reload();
    invites.reload();
  });
  const [link, setLink] = useState<{ email: string; url: string }>();
  return (
    <Page title="Team">
      <Section title="Members">
        <ListTable
          list={members}
          failure={change.failure}
          columns={[
            { head: 'E-mail', cell: (m) => m.email },
            { head: 'Role', cell: (m) => m.role },
            { head: 'Member since', cell: (m) => at(m.createdAt) },
            {
              head: 'Change',
              cell: (m) => <MemberActions member={m} self={m.id === session.member?.id} run={change.run} />,
            },
          ]}
        />
        <RoleTable />
      </Section>
      <FormSection
        label="Invite a member"
        fields={[{ name: 'email', label: 'Their e-mail', type: 'email' }, { name: 'role' }]}
        submit="Send the invitation"
        added={invites.reload}
        action={async (v) => {
          const invite = await api.inviteMember({ email: v.email, role: v.role as Role });
          setLink({ email: invite.email, url: invite.acceptUrl });
          return `Invitation sent to ${invite.email} as ${invite.role}.`;
        }}
        after={
          link && (
            <p class="secret" role="status">
              The link for {link.email}, also e-mailed, works once: <code class="id">{link.url}</code>
            </p>
          )
        }
      >
        {() => <Select label="Their role" name="role" value="viewer" options={ROLE_OPTIONS} />}
      </FormSection>
      <Section title="Open invitations">
        <ListTable
          list={invites}
          columns={[
            { head: 'E-mail', cell: (i) => i.email },
            { head: 'Role', cell: (i) => i.role },
            { head: 'Expires', cell: (i) => at(i.expiresAt) },
            {
              head: 'Revoke',
              cell: (i) => (
                <button type="button" onClick={() => change.run(() => api.revokeInvite({ id: i.id }))}>
                  Revoke the invitation of {i.email}
                </button>
              ),
            },
          ]}
        />
      </Section>
    </Page>
  );
}
