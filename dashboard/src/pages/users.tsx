import { useState } from 'preact/hooks';
import { usersFromCsv } from '../csv.ts';
import { Form, FormSection, labelled } from '../form.tsx';
import { usePaged } from '../load.tsx';
import { navigate } from '../router.tsx';
import { api } from '../session.ts';
import { code, ListTable, when } from '../table.tsx';
import { Alert, FieldError, Page, Section } from '../ui.tsx';

async function usersFrom(values: Record<string, string>, form: HTMLFormElement): Promise<unknown[]> {
  const file = (form.elements.namedItem('csv') as HTMLInputElement).files?.[0];
  if (file) return usersFromCsv(await file.text());
  if (!values.json?.trim()) throw new Error('paste a JSON array of users or choose a CSV file');
  try {
    const parsed = JSON.parse(values.json);
    return Array.isArray(parsed) ? parsed : parsed.users;
  } catch {
    throw new Error('the pasted text is not valid JSON');
  }
}

const USER_ID = labelled({ userId: 'User id' });

async function openUser(v: Record<string, string>): Promise<void> {
  const user = await api.getPartnerUser({ userId: v.userId.trim() });
  navigate(`/dashboard/users/${user.userId}`);
}

/** One request's failures, a page at a time. */
function Failures(props: { requestId: string }) {
  const request = usePaged(
    async (page) => (await api.getOnboardingRequest({ id: props.requestId, page, limit: 10 })).failures,
    [props.requestId],
  );
  return (
    <section aria-label={`Failures of ${props.requestId}`}>
      <Alert>{request.error}</Alert>
      <ul>
        {request.data?.data.map((f, i) => (
          <li key={`${request.page}-${i}`}>
            {code(f.user)}: {f.reason}
          </li>
        ))}
      </ul>
      {request.pager('Failures')}
    </section>
  );
}

export function Users() {
  const [open, setOpen] = useState<string>();
  const requests = usePaged((page) => api.listOnboardingRequests({ page, limit: 10 }), []);
  return (
    <Page title="Users">
      <Section title="Onboard users">
        <Form
          label="Onboard users"
          fields={[{ name: 'users' }]}
          submit="Onboard users"
          added={requests.reload}
          action={async (values, form) => {
            const users = await usersFrom(values, form);
            const { requestId } = await api.onboardUsers({ users: users as never });
            return `Request ${requestId} received: ${users.length} users.`;
          }}
        >
          {(e) => (
            <>
              <div class="field">
                <label for="onboard-json">Users as JSON</label>
                <textarea
                  id="onboard-json"
                  name="json"
                  rows={5}
                  placeholder='[{"userId": "…", "userData": {"fullname": "Ada"}}]'
                />
              </div>
              <div class="field">
                <label for="onboard-csv">Or a CSV file (userId, then userData columns)</label>
                <input id="onboard-csv" name="csv" type="file" accept=".csv,text/csv" />
              </div>
              <FieldError>{e.users}</FieldError>
            </>
          )}
        </Form>
      </Section>
      <Section title="Onboarding requests">
        <button type="button" onClick={requests.reload}>
          Refresh requests
        </button>
        <ListTable
          list={requests}
          columns={[
            { head: 'Request', cell: (r) => code(r.id) },
            { head: 'Received', cell: (r) => when(r.createdAt) },
            { head: 'Status', cell: (r) => r.status },
            {
              head: 'Progress',
              cell: (r) => (
                <>
                  <progress max={r.usersCount} value={r.processedCount} aria-label={`Progress of ${r.id}`} />{' '}
                  {r.processedCount} of {r.usersCount}
                </>
              ),
            },
            {
              head: 'Failed',
              cell: (r) =>
                r.failedCount > 0 ? (
                  <button
                    type="button"
                    aria-label={`Show the ${r.failedCount} failures of ${r.id}`}
                    onClick={() => setOpen(open === r.id ? undefined : r.id)}
                  >
                    {r.failedCount}
                  </button>
                ) : (
                  0
                ),
            },
          ]}
        />
        {requests.pager('Requests')}
        {open && <Failures key={open} requestId={open} />}
      </Section>
      <FormSection label="Find a user" fields={USER_ID} submit="Open user" action={openUser} />
    </Page>
  );
}
