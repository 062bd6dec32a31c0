import { describe, expect, it } from 'vitest';
import { gatewayForFile } from './support/served-openapi.ts';

// The document is built on the first request that reads it.
describe('API documentation built on first read', () => {
  const gateway = gatewayForFile();

  it("serves the whole document at /openapi.json; Swagger UI's /docs/json points there", async () => {
    const res = await fetch(`${gateway().url}/openapi.json`);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const doc = (await res.json()) as { openapi: string; paths: object };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);
    const old = await fetch(`${gateway().url}/docs/json`, { redirect: 'manual' });
    expect(old.status).toBe(301);
    expect(old.headers.get('location')).toBe('/openapi.json');
  });
});
