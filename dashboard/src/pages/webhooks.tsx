import { useState } from 'preact/hooks';
import { Form } from '../form.tsx';
import { useAction, useLoad, usePaged } from '../load.tsx';
import { api } from '../session.ts';
import { at, DataTable } from '../table.tsx';
import { Alert, Page, Section, StatusFilter } from '../ui.tsx';

type Status = '' | 'pending' | 'delivered' | 'failed';
type Delivery = Awaited<ReturnType<typeof api.listDeliveries>>['data'][number];

function DeliveryView(props: { delivery: Delivery; redeliver: () => void }) {
  const d = props.delivery;
  return (
    <article class="delivery" aria-label={`Delivery ${d.id}`}>
      <h3>
        {d.event} · {d.status} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
        {d.sequence !== null && <> · #{d.sequence}</>}
      </h3>
      <p>
        Created {at(d.createdAt)}
        {d.nextAttemptAt && <>; next attempt {at(d.nextAttemptAt)}</>}
        {d.deliveredAt && <>; delivered {at(d.deliveredAt)}</>}
      </p>
      <DataTable
        label={`Attempts of delivery ${d.id}`}
        rows={d.attemptLog}
        rowKey={(a) => a.attempt}
        columns={[
          { head: 'Attempt', cell: (a) => `${a.attempt}${a.manual ? ' (redelivery)' : ''}` },
          { head: 'URL', cell: (a) => a.url },
          { head: 'Status code', cell: (a) => a.statusCode ?? '—' },
          { head: 'Error', cell: (a) => a.error ?? (a.finishedAt ? '' : 'outcome unknown') },
          { head: 'Took', cell: (a) => (a.durationMs === null ? '—' : `${a.durationMs} ms`) },
        ]}
      />
      {d.status !== 'delivered' && (
        <button type="button" aria-label={`Redeliver ${d.id}`} onClick={props.redeliver}>
          Redeliver
        </button>
      )}
    </article>
  );
}

export function Webhooks() {
  const me = useLoad(() => api.getMe(), []);
  const kinds = useLoad(() => api.listEventKinds(), []);
  const [secret, setSecret] = useState<string>();
  const [status, setStatus] = useState<Status>('');
  const deliveries = usePaged(
    (page) => api.listDeliveries({ page, limit: 10, status: status || undefined }),
    [status],
  );
  const redeliver = useAction(deliveries.reload);
  return (
    <Page title="Webhooks">
      <Section title="Endpoint">
        {me.data && kinds.data && (
          <Form
            label="Webhook endpoint"
            fields={[
              { name: 'url', label: 'Webhook URL', type: 'url', defaultValue: me.data.webhookUrl ?? '' },
            ]}
            submit="Save webhook"
            requires={['webhooks', 'change the webhook']}
            action={async (v) => {
              const all = kinds.data!.data.map((k) => k.event);
              const chosen = all.filter((k) => v[`event:${k}`] === 'on');
              // Every kind ticked is sent as no list: kinds added later are then sent too.
              const events = chosen.length === all.length ? undefined : chosen;
              const res = await api.setWebhook({ url: v.url, events });
              // The secret is shown once: when the first URL creates it, or when it is rotated
              // (a credential change, which asks for a recent password).
              const rotated = v.rotateSecret === 'on' ? (await api.rotateWebhookSecret()).secret : undefined;
              setSecret(rotated ?? res.secret);
              me.reload();
              return 'Webhook saved.';
            }}
          >
            {() => (
              <>
                <div class="field check">
                  <input id="rotate" name="rotateSecret" type="checkbox" />
                  <label for="rotate">Rotate the signing secret</label>
                </div>
                <fieldset>
                  <legend>Events sent</legend>
                  {kinds.data!.data.map((k) => (
                    <div class="field check" key={k.event}>
                      <input
                        id={`event-${k.event}`}
                        name={`event:${k.event}`}
                        type="checkbox"
                        defaultChecked={me.data!.webhookEvents.includes(k.event)}
                      />
                      <label for={`event-${k.event}`} title={k.description}>
                        {k.event}
                      </label>
                    </div>
                  ))}
                </fieldset>
              </>
            )}
          </Form>
        )}
        {secret && (
          <p class="secret" role="status">
            Signing secret: <code data-testid="webhook-secret">{secret}</code>
          </p>
        )}
      </Section>
      <Alert>{kinds.error}</Alert>
      <Section title="Deliveries">
        <div class="row">
          <StatusFilter
            value={status}
            options={{ '': 'All deliveries', pending: 'Pending', delivered: 'Delivered', failed: 'Failed' }}
            onChange={setStatus}
          />
          <button type="button" onClick={deliveries.reload}>
            Refresh deliveries
          </button>
        </div>
        <Alert>{deliveries.error ?? redeliver.failure}</Alert>
        {deliveries.data?.data.map((d) => (
          <DeliveryView
            key={d.id}
            delivery={d}
            redeliver={() => redeliver.run(() => api.retryDelivery({ id: d.id }))}
          />
        ))}
        {deliveries.pager('Deliveries')}
      </Section>
    </Page>
  );
}
