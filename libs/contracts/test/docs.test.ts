import { describe, expect, it } from 'vitest';
import { allOperations, docs, webhooks } from '../src/index.ts';

const http = allOperations.filter((op) => op.http);

describe('operation docs', () => {
  it('describe every HTTP operation, and nothing else', () => {
    expect(http.filter((op) => !docs.operationDocs[op.name]?.description).map((op) => op.name)).toEqual([]);
    const names = new Set(http.map((op) => op.name));
    expect(Object.keys(docs.operationDocs).filter((n) => !names.has(n))).toEqual([]);
  });

  it.each(http.map((op) => [op.name, op] as const))(
    '%s: its examples are accepted by its own schemas',
    (_, op) => {
      const d = docs.operationDocs[op.name];
      if (op.schemas.body) {
        expect(d.request, 'a request example').toBeDefined();
        const parsed = op.schemas.body.safeParse(d.request);
        expect(parsed.error?.issues ?? []).toEqual([]);
      }
      if (op.schemas.query) {
        expect(d.query, 'a query example').toBeDefined();
        expect(op.schemas.query.safeParse(d.query).error?.issues ?? []).toEqual([]);
      }
      if (!op.http!.noData) {
        expect(d.response, 'a response example').toBeDefined();
        expect(op.schemas.response.safeParse(d.response).error?.issues ?? []).toEqual([]);
      }
    },
  );

  it.each(webhooks.EVENT_KINDS)('the %s webhook example is its body', (kind) => {
    const parsed = webhooks.payloadSchemas[kind].safeParse(docs.webhookDocs.events[kind].example);
    expect(parsed.error?.issues ?? []).toEqual([]);
  });
});
