import Papa from 'papaparse';
import { useState } from 'preact/hooks';
import { download } from '../download.ts';
import { Form } from '../form.tsx';
import { usePaged } from '../load.tsx';
import { checkRows, usersFrom } from '../onboard-check.ts';
import { api } from '../session.ts';
import { at, code, ListTable } from '../table.tsx';
import { Alert, FieldError, Page, Section } from '../ui.tsx';

/** The most problems listed at once; the count says how many more. */
const SHOWN_PROBLEMS = 20;

function Problems(props: { problems: string[] }) {
  if (!props.problems.length) return null;
  const more = props.problems.length - SHOWN_PROBLEMS;
  return (
    <div role="alert" class="problems">
      <p>
        Nothing was sent: {props.problems.length} problem{props.problems.length === 1 ? '' : 's'} in the
        users.
      </p>
      <ul aria-label="Problems in the users">
        {props.problems.slice(0, SHOWN_PROBLEMS).map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
      {more > 0 && <p>And {more} more.</p>}
    </div>
  );
}

/** Every failure of a request, a page of the API's largest at a time, as a CSV file. */
async function downloadFailures(requestId: string): Promise<void> {
  const rows: { userId: string; reason: string }[] = [];
  for (let page = 1, last = 1; page <= last; page++) {
    const { failures } = await api.getOnboardingRequest({ id: requestId, page, limit: 100 });
    rows.push(...failures.data.map((f) => ({ userId: f.user, reason: f.reason })));
    last = failures.lastpage;
  }
  download(`onboarding-failures-${requestId}.csv`, 'text/csv', Papa.unparse(rows));
}

/** One request's failures, a page at a time, and all of them as a CSV file. */
function Failures(props: { requestId: string }) {
  const request = usePaged(
    async (page) => (await api.getOnboardingRequest({ id: props.requestId, page, limit: 10 })).failures,
    [props.requestId],
  );
  const [failure, setFailure] = useState<string>();
  return (
    <section aria-label={`Failures of ${props.requestId}`}>
      <Alert>{request.error ?? failure}</Alert>
      <ul>
        {request.data?.data.map((f, i) => (
          <li key={`${request.page}-${i}`}>
            {code(f.user)}: {f.reason}
          </li>
        ))}
      </ul>
      {request.pager('Failures')}
      <button
        type="button"
        onClick={() => downloadFailures(props.requestId).catch((err: Error) => setFailure(err.message))}
      >
        Download the failures as CSV
      </button>
    </section>
  );
}

export function Onboarding() {
  const [open, setOpen] = useState<string>();
  const [problems, setProblems] = useState<string[]>([]);
  const requests = usePaged((page) => api.listOnboardingRequests({ page, limit: 10 }), []);
  return (
    <Page title="Onboarding">
      <Section title="Onboard users">
        <p>
          Each row is checked before anything is sent: a <code>userId</code> (a UUID, once) and its{' '}
          <code>userData</code>.
        </p>
        <Form
          label="Onboard users"
          fields={[{ name: 'users' }]}
          submit="Onboard users"
          requires={['users', 'onboard users']}
          added={requests.reload}
          action={async (values, form) => {
            setProblems([]);
            const checked = checkRows(await usersFrom(values, form));
            if (checked.problems.length) {
              setProblems(checked.problems);
              throw new Error('fix the rows listed below and send again');
            }
            await api.onboardUsers({ users: checked.rows });
            return `Request received: ${checked.rows.length} users; it is the first of the requests below.`;
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
        <Problems problems={problems} />
      </Section>
      <Section title="Onboarding requests">
        <button type="button" onClick={requests.reload}>
          Refresh requests
        </button>
        <ListTable
          list={requests}
          columns={[
            { head: 'Request', cell: (r) => code(r.id) },
            { head: 'Received', cell: (r) => at(r.createdAt) },
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
    </Page>
  );
}
