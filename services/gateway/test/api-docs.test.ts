import { describe, expect, it } from 'vitest';
import { gatewayForFile } from './support/served-openapi.ts';

// The document is built on the first request that reads it: each of Swagger UI's routes and
// /openapi.json must get the whole document whichever is asked first.
describe('API documentation built on first read', () => {
  const gateway = gatewayForFile();

  it('serves the whole document at /docs/json, /docs/yaml and /openapi.json, /docs/json asked first', async () => {
    const fromUi = (await (await fetch(`${gateway().url}/docs/json`)).json()) as { paths: object };
    expect(Object.keys(fromUi.paths).length).toBeGreaterThan(10);
    const yaml = await (await fetch(`${gateway().url}/docs/yaml`)).text();
    expect(yaml).toContain('openapi: 3.1.0');
    expect(await (await fetch(`${gateway().url}/openapi.json`)).json()).toEqual(fromUi);
  });
});
