import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

/** The committed reference, as openapi-typescript turns it into a client's types. */
const types = astToString(await openapiTS(new URL('../../../docs/reference/openapi.json', import.meta.url)));

describe('docs/reference/openapi.json for generated clients', () => {
  it('gives named types to the envelopes, pages and resources', () => {
    for (const name of [
      'SuccessEnvelope',
      'FailureEnvelope',
      'Rule',
      'LedgerEntry',
      'LedgerEntryPage',
      'Tier',
      'Treasury',
    ])
      expect(types).toMatch(new RegExp(`^ {8}${name}: \\{$`, 'm'));
    // One failure type, referenced: not a copy per response.
    expect(types.match(/errorType: string;/g)).toHaveLength(1);
  });

  it('creates a rule with POST; the GET with a body is deprecated', () => {
    const createRule = types.slice(types.indexOf('"/api/v1/laas/rules/create-rule": {'));
    expect(createRule).toMatch(/post: operations\["createRule"\];/);
    expect(createRule.slice(0, createRule.indexOf('get: operations'))).toContain('@deprecated');
  });

  it('is the document the gateway builds (npm run lint fails when it is stale)', () => {
    const doc = JSON.parse(readFileSync('docs/reference/openapi.json', 'utf8'));
    expect(doc.info.version).toBe('1.0.0');
    expect(doc.servers).toEqual([
      { url: 'http://127.0.0.1:3000', description: 'make up (a deployment serves its own address)' },
    ]);
  });
});
