import { handle } from '@coin/bus';
import { docs, webhooks } from '@coin/contracts';
import { z } from 'zod';

/** The kinds with their bodies' JSON Schemas, generated from the contracts once. */
const kinds = webhooks.EVENT_KINDS.map((event) => {
  const { $schema: _ignored, ...schema } = z.toJSONSchema(webhooks.payloadSchemas[event], {
    io: 'output',
    unrepresentable: 'any',
  }) as Record<string, unknown>;
  return { event, description: docs.webhookDocs.events[event].description, schema };
});

export function listEventKindsHandler() {
  return handle(webhooks.listEventKinds, async () => ({ data: kinds }));
}
