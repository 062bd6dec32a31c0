import { useState } from 'preact/hooks';
import { usersFromCsv } from '../csv.ts';
import { navigate } from '../router.tsx';
import { api } from '../session.ts';
import { Alert, Field, Form, Page, Pager, useLoad } from '../ui.tsx';

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

/** One request's failures, a page at a time. */
function Failures(props: { requestId: string }) {
  const [page, setPage] = useState(1);
  const request = useLoad(() => api.getOnboardingRequest({ id: props.requestId, page, limit: 10 }), [page]);
  const failures = request.data?.failures;
  return (
    <section aria-label={`Failures of ${props.requestId}`}>
      <Alert>{request.error}</Alert>
      <ul>
        {failures?.data.map((f, i) => (
          <li key={`${page}-${i}`}>
            <code>{f.user}</code>: {f.reason}
          </li>
        ))}
      </ul>
      {failures && <Pager label="Failures" page={page} lastpage={failures.lastpage} onPage={setPage} />}
    </section>
  );
}

export function Users() {
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<string>();
  const requests = useLoad(() => api.listOnboardingRequests({ page, limit: 10 }), [page]);
  return (
    <Page title="Users">
      <section aria-labelledby="onboard">
        <h2 id="onboard">Onboard users</h2>
        <Form
          label="Onboard users"
          fields={['users']}
          submit="Onboard users"
          action={async (values, form) => {
            const users = await usersFrom(values, form);
            const { requestId } = await api.onboardUsers({ users: users as never });
            form.reset();
            requests.reload();
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
              {e.users && <p class="field-error">{e.users}</p>}
            </>
          )}
        </Form>
      </section>
      <section aria-labelledby="requests">
        <h2 id="requests">Onboarding requests</h2>
        <button type="button" onClick={requests.reload}>
          Refresh requests
        </button>
        <Alert>{requests.error}</Alert>
        <table>
          <thead>
            <tr>
              <th scope="col">Request</th>
              <th scope="col">Received</th>
              <th scope="col">Status</th>
              <th scope="col">Progress</th>
              <th scope="col">Failed</th>
            </tr>
          </thead>
          <tbody>
            {requests.data?.data.map((r) => (
              <tr key={r.id}>
                <td>
                  <code>{r.id}</code>
                </td>
                <td>{new Date(r.createdAt).toLocaleString()}</td>
                <td>{r.status}</td>
                <td>
                  <progress max={r.usersCount} value={r.processedCount} aria-label={`Progress of ${r.id}`} />{' '}
                  {r.processedCount} of {r.usersCount}
                </td>
                <td>
                  {r.failedCount > 0 ? (
                    <button
                      type="button"
                      aria-label={`Show the ${r.failedCount} failures of ${r.id}`}
                      onClick={() => setOpen(open === r.id ? undefined : r.id)}
                    >
                      {r.failedCount}
                    </button>
                  ) : (
                    0
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {requests.data && (
          <Pager label="Requests" page={page} lastpage={requests.data.lastpage} onPage={setPage} />
        )}
        {open && <Failures key={open} requestId={open} />}
      </section>
      <section aria-labelledby="find">
        <h2 id="find">Find a user</h2>
        <Form
          label="Find a user"
          fields={['userId']}
          submit="Open user"
          action={async (v) => {
            const user = await api.getPartnerUser({ userId: v.userId.trim() });
            navigate(`/dashboard/users/${user.userId}`);
            return undefined;
          }}
        >
          {(e) => <Field label="User id" name="userId" error={e.userId} />}
        </Form>
      </section>
    </Page>
  );
}
