import { useState } from 'preact/hooks';
import { api } from '../session.ts';
import { Alert, Field, Form, Page, Pager, Select, useLoad } from '../ui.tsx';

type Status = '' | 'pending' | 'delivered' | 'failed';

export function Webhooks() {
  const me = useLoad(() => api.getMe(), []);
  const [secret, setSecret] = useState<string>();
  const [status, setStatus] = useState<Status>('');
  const [page, setPage] = useState(1);
  const [failure, setFailure] = useState<string>();
  const deliveries = useLoad(
    () => api.listDeliveries({ page, limit: 10, status: status || undefined }),
    [page, status],
  );
  return (
    <Page title="Webhooks">
      <section aria-labelledby="endpoint">
        <h2 id="endpoint">Endpoint</h2>
        {me.data && (
          <Form
            label="Webhook endpoint"
            fields={['url']}
            submit="Save webhook"
            action={async (v) => {
              const res = await api.setWebhook({ url: v.url, rotateSecret: v.rotateSecret === 'on' });
              setSecret(res.secret);
              me.reload();
              return 'Webhook saved.';
            }}
          >
            {(e) => (
              <>
                <Field
                  label="Webhook URL"
                  name="url"
                  type="url"
                  value={me.data?.webhookUrl ?? ''}
                  error={e.url}
                />
                <div class="field check">
                  <input id="rotate" name="rotateSecret" type="checkbox" />
                  <label for="rotate">Rotate the signing secret</label>
                </div>
              </>
            )}
          </Form>
        )}
        {secret && (
          <p class="secret" role="status">
            Signing secret: <code data-testid="webhook-secret">{secret}</code>
          </p>
        )}
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Deliveries</h2>
        <div class="row">
          <Select
            label="Show"
            name="status"
            value={status}
            options={[
              ['', 'All deliveries'],
              ['pending', 'Pending'],
              ['delivered', 'Delivered'],
              ['failed', 'Failed'],
            ]}
            onChange={(v) => {
              setStatus(v as Status);
              setPage(1);
            }}
          />
          <button type="button" onClick={deliveries.reload}>
            Refresh deliveries
          </button>
        </div>
        <Alert>{deliveries.error ?? failure}</Alert>
        {deliveries.data?.data.map((d) => (
          <article key={d.id} class="delivery" aria-label={`Delivery ${d.id}`}>
            <h3>
              {d.event} · {d.status} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
            </h3>
            <p>
              Created {new Date(d.createdAt).toLocaleString()}
              {d.nextAttemptAt && <>; next attempt {new Date(d.nextAttemptAt).toLocaleString()}</>}
              {d.deliveredAt && <>; delivered {new Date(d.deliveredAt).toLocaleString()}</>}
            </p>
            <table aria-label={`Attempts of delivery ${d.id}`}>
              <thead>
                <tr>
                  <th scope="col">Attempt</th>
                  <th scope="col">URL</th>
                  <th scope="col">Status code</th>
                  <th scope="col">Error</th>
                  <th scope="col">Took</th>
                </tr>
              </thead>
              <tbody>
                {d.attemptLog.map((a) => (
                  <tr key={a.attempt}>
                    <td>
                      {a.attempt}
                      {a.manual && ' (redelivery)'}
                    </td>
                    <td>{a.url}</td>
                    <td>{a.statusCode ?? '—'}</td>
                    <td>{a.error ?? (a.finishedAt ? '' : 'outcome unknown')}</td>
                    <td>{a.durationMs === null ? '—' : `${a.durationMs} ms`}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {d.status !== 'delivered' && (
              <button
                type="button"
                aria-label={`Redeliver ${d.id}`}
                onClick={() => {
                  setFailure(undefined);
                  api
                    .retryDelivery({ id: d.id })
                    .then(deliveries.reload, (err: Error) => setFailure(err.message));
                }}
              >
                Redeliver
              </button>
            )}
          </article>
        ))}
        {deliveries.data && (
          <Pager label="Deliveries" page={page} lastpage={deliveries.data.lastpage} onPage={setPage} />
        )}
      </section>
    </Page>
  );
}
