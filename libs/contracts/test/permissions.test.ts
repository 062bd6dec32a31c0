import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  API_KEY_SCOPES,
  allOperations,
  isApiKeyScope,
  operationsOf,
  PERMISSIONS,
  ROLE_PERMISSIONS,
} from '../src/index.ts';

const http = allOperations.filter((op) => op.http);

describe('the permission model', () => {
  it('names a permission on every partner operation and none on an open one', () => {
    for (const op of http) {
      if (op.http!.auth === 'partner') expect(PERMISSIONS, op.name).toContain(op.http!.permission);
      else expect(op.http!.permission, op.name).toBeUndefined();
    }
  });

  it('lets only sessions manage credentials and money policy, with a recent password', () => {
    const stepUp = http.filter((op) => op.http!.stepUp).map((op) => op.name);
    expect(stepUp).toEqual(expect.arrayContaining(['createApiKey', 'revokeApiKey', 'setTreasury']));
    for (const op of http.filter((o) => o.http!.stepUp))
      expect(isApiKeyScope(op.http!.permission!)).toBe(false);
  });

  it('reads everything with read alone: every GET of a partner needs read, or a session-only permission', () => {
    for (const op of http.filter((o) => o.http!.auth === 'partner' && o.http!.method === 'GET'))
      expect(['read', 'export', 'credentials', 'team', 'audit'], op.name).toContain(op.http!.permission);
  });

  it('gives every role read, and no API key a session-only permission', () => {
    for (const permissions of Object.values(ROLE_PERMISSIONS)) expect(permissions).toContain('read');
    expect(API_KEY_SCOPES.every(isApiKeyScope)).toBe(true);
    expect(PERMISSIONS.filter((p) => !isApiKeyScope(p))).toEqual([
      'credentials',
      'treasury',
      'team',
      'audit',
    ]);
  });

  it('will not declare a partner operation without a permission (a type error)', () => {
    const { http: declare } = operationsOf('identity');
    const schemas = { response: z.object({}) };
    // @ts-expect-error: a partner operation must name its permission
    declare('noPermission', 'GET /api/v1/example', { message: 'm', summary: 's', schemas });
    declare('openWithPermission', 'GET /api/v1/example', {
      auth: 'none',
      // @ts-expect-error: an open operation names none
      permission: 'read',
      message: 'm',
      summary: 's',
      schemas,
    });
    expect(
      declare('ok', 'GET /api/v1/example', { permission: 'read', message: 'm', summary: 's', schemas }).http
        ?.permission,
    ).toBe('read');
  });
});
