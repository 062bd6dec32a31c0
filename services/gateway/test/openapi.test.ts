import SwaggerParser from '@apidevtools/swagger-parser';
import { allOperations, webhooks } from '@coin/contracts';
import { describe, expect, it } from 'vitest';
import { servedOpenApi } from './support/served-openapi.ts';

const openapi = servedOpenApi({ PUBLIC_URL: 'https://rewards.example.com' });
const operations = openapi.operations;

/** The `appErrorCode` values a failure answer's schema lists (the envelope with the operation's codes). */
const codesOf = (schema: any): string[] =>
  schema.allOf[1].properties.data.allOf[1].properties.appErrorCode.enum;
/** A named schema of the document's components. */
const component = (ref: string) => openapi.doc().components.schemas[ref.replace('#/components/schemas/', '')];

describe('/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (swagger-parser)', async () => {
    const api = await SwaggerParser.validate(structuredClone(openapi.doc()));
    expect((api as { openapi?: string }).openapi).toBe('3.1.0');
    expect(openapi.doc().servers).toEqual([
      { url: 'https://rewards.example.com', description: 'This gateway' },
    ]);
  });

  it('documents every HTTP operation with a description, examples and every error code', () => {
    const ops = operations();
    const ids = new Set(ops.map((o) => o.operationId));
    expect(allOperations.filter((op) => op.http && !ids.has(op.name)).map((op) => op.name)).toEqual([]);
    let examples = 0;
    const codes = new Set<string>();
    for (const op of ops) {
      expect(op.description, op.operationId).toBeTruthy();
      if (op.requestBody) {
        expect(op.requestBody.content['application/json'].example, op.operationId).toBeDefined();
        examples++;
      }
      for (const [status, res] of Object.entries(op.responses)) {
        const media = res.content?.['application/json'];
        if (Number(status) < 400) {
          expect(media.example.status, op.operationId).toBe('success');
          examples++;
          continue;
        }
        for (const code of codesOf(media.schema)) codes.add(`${status} ${code}`);
        examples += Object.keys(media.examples).length;
      }
    }
    const appErrorCodes = new Set([...codes].map((c) => c.split(' ')[1]).filter(Boolean));
    console.log(
      `openapi: ${ops.length} operations (${ids.size} ids), ${examples} examples, ${codes.size} status/appErrorCode pairs (${appErrorCodes.size} appErrorCode values), ${Object.keys(openapi.doc().webhooks).length} webhook`,
    );
    expect(codes).toContain('422 INSUFFICIENT_BALANCE');
    expect(codes).toContain('409 ');
    expect(codes).toContain('409 IDEMPOTENCY_IN_PROGRESS');
  });

  it('describes fields, the transfer errors, the rate-limit headers and every webhook event', () => {
    const transfer = openapi.doc().paths['/api/v1/laas/coins/transfer-from-user-wallet'].post;
    const body = transfer.requestBody.content['application/json'].schema;
    expect(body.properties.userId.description).toMatch(/UUID you chose/);
    expect(transfer.parameters.map((p: any) => p.$ref ?? p.name)).toContain(
      '#/components/parameters/IdempotencyKey',
    );
    expect(codesOf(transfer.responses['422'].content['application/json'].schema)).toEqual([
      'INSUFFICIENT_BALANCE',
      'IDEMPOTENCY_CONFLICT',
    ]);
    expect(transfer.responses['503'].headers['Retry-After']).toBeDefined();
    const login = openapi.doc().paths['/api/v1/ufel/partners/login'].post;
    expect(Object.keys(login.responses['200'].headers)).toContain('x-ratelimit-remaining');
    expect(login.responses['429'].headers['Retry-After']).toBeDefined();
    const hook = openapi.doc().webhooks.USER_ONBOARDING.post;
    expect(hook.parameters.map((p: any) => p.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    expect(component(hook.requestBody.content['application/json'].schema.$ref).required).toEqual([
      'event',
      'status',
      'occurredAt',
      'sequence',
      'requestId',
      'failed',
    ]);
    expect(Object.keys(openapi.doc().webhooks)).toEqual([...webhooks.EVENT_KINDS]);
    for (const kind of webhooks.EVENT_KINDS) {
      const body = openapi.doc().webhooks[kind].post.requestBody.content['application/json'];
      expect(component(body.schema.$ref).properties.event.const, kind).toBe(kind);
      expect(body.example.event, kind).toBe(kind);
    }
  });

  it('names its models: the envelopes, pages and every resource are components, referenced where used', () => {
    const schemas = openapi.doc().components.schemas;
    for (const name of [
      'SuccessEnvelope',
      'FailureEnvelope',
      'Failure',
      'Partner',
      'User',
      'UserPage',
      'Rule',
      'ListedRulePage',
      'Tier',
      'LedgerEntry',
      'LedgerEntryPage',
      'Transfer',
      'Reversal',
      'Treasury',
      'Delivery',
      'UserOnboardingEvent',
      'CoinsTransferredEvent',
    ])
      expect(schemas[name], name).toBeDefined();
    const history = openapi.doc().paths['/api/v1/laas/coins/get-user-transactions'].get;
    const success = history.responses['200'].content['application/json'].schema;
    expect(success.allOf[0].$ref).toBe('#/components/schemas/SuccessEnvelope');
    expect(success.allOf[1].properties.data.$ref).toBe('#/components/schemas/LedgerEntryPage');
    expect(schemas.LedgerEntryPage.properties.data.items.$ref).toBe('#/components/schemas/LedgerEntry');
  });

  it("makes POST the create-rule operation, and marks the specification's GET form deprecated", () => {
    const item = openapi.doc().paths['/api/v1/laas/rules/create-rule'];
    expect(item.post.operationId).toBe('createRule');
    expect(item.post.deprecated).toBeUndefined();
    expect(item.get).toMatchObject({ operationId: 'createRuleWithGet', deprecated: true });
  });

  it('needs a bearer token unless an operation says it needs none; every tag is described', () => {
    const doc = openapi.doc();
    expect(doc.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/api/v1/ufel/partners/login'].post.security).toEqual([]);
    expect(doc.paths['/api/v1/laas/tiers'].get.security).toBeUndefined();
    for (const hook of Object.values<any>(doc.webhooks)) expect(hook.post.security).toEqual([]);
    expect(doc.tags.every((t: any) => t.description)).toBe(true);
    expect(new Set(doc.tags.map((t: any) => t.name)).size).toBe(doc.tags.length);
    expect(doc.info.license).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
  });
});
