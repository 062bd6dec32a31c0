import { docs, webhooks as webhooksContract } from '@coin/contracts';
import type { SchemaComponents } from './schemas.ts';

type Json = Record<string, unknown>;

export const WEBHOOK_EVENTS_TAG = 'webhook events';

/** `USER_ONBOARDING` → `UserOnboardingEvent`: the component name of a webhook body. */
const componentName = (kind: string) =>
  `${kind.toLowerCase().replace(/(^|_)(\w)/g, (_, _s: string, c: string) => c.toUpperCase())}Event`;

/** The OpenAPI `webhooks`: every event kind POSTed to a partner, its body a named component. */
export function webhookEntries(components: SchemaComponents): Json {
  const parameters = Object.entries(docs.webhookDocs.headers).map(([name, description]) => ({
    name,
    in: 'header',
    required: true,
    description,
    schema: { type: 'string' },
  }));
  return Object.fromEntries(
    webhooksContract.EVENT_KINDS.map((kind) => {
      const hook = docs.webhookDocs.events[kind];
      const name = componentName(kind);
      // Named here, not in the contracts: the webhooks service serves these schemas as they are.
      const body = webhooksContract.payloadSchemas[kind].meta({ id: name, description: hook.summary });
      const operationId = `${name[0].toLowerCase()}${name.slice(1, -'Event'.length)}Webhook`;
      return [
        kind,
        {
          post: {
            summary: hook.summary,
            description: hook.description,
            operationId,
            tags: [WEBHOOK_EVENTS_TAG],
            security: [],
            parameters,
            requestBody: {
              required: true,
              content: {
                'application/json': { schema: components.jsonSchema(body, 'output'), example: hook.example },
              },
            },
            responses: {
              '2XX': { description: 'Acknowledged: the delivery is done.' },
              '410': { description: 'Gone: disables this URL until you set one again or retry a delivery.' },
              default: { description: 'Anything else, a timeout or a refused connection: retried later.' },
            },
          },
        },
      ];
    }),
  );
}
