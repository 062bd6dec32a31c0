import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { breakingChanges, nameOf, unnamed } from '../breaking-changes.ts';
import { lastReleased } from '../released.ts';

const current = JSON.parse(readFileSync('docs/reference/openapi.json', 'utf8'));
const released = lastReleased();

describe('the breaking-change check', () => {
  it("finds nothing between the released reference and today's that the CHANGELOG does not name", () => {
    const changes = breakingChanges(released.doc, current);
    expect(unnamed(changes, readFileSync('CHANGELOG.md', 'utf8')).map(nameOf)).toEqual([]);
  });

  it('finds a removed field, a removed enum value, a narrowed or widened type and a removed operation', () => {
    const changed = structuredClone(current);
    delete changed.components.schemas.LedgerEntry.properties.balanceAfter;
    changed.components.schemas.Tier.properties.rank.type = 'string';
    const patch = changed.paths['/api/v1/laas/rules/{id}'].patch;
    patch.requestBody.content['application/json'].schema.properties.status.enum = ['active'];
    const tiers = changed.paths['/api/v1/laas/tiers'];
    tiers.post.requestBody.content['application/json'].schema.properties.rank.type = 'string';
    delete changed.paths['/api/v1/laas/users'].get;
    expect(breakingChanges(current, changed).map(nameOf)).toEqual([
      '`GET /api/v1/laas/users`: operation removed',
      '`GET /api/v1/laas/tiers` `data.data[].rank`: type widened: integer → string',
      '`POST /api/v1/laas/tiers` `body.rank`: type narrowed: integer → string',
      '`POST /api/v1/laas/tiers` `data.rank`: type widened: integer → string',
      '`PATCH /api/v1/laas/rules/{id}` `body.status`: enum value "inactive" removed',
      '`GET /api/v1/laas/coins/get-user-transactions` `data.data[].balanceAfter`: field removed',
    ]);
  });

  it('finds a field made required in a request, or optional in an answer, and a webhook body changed', () => {
    const changed = structuredClone(current);
    const keys = changed.paths['/api/v1/ufel/partners/api-keys'].post;
    keys.requestBody.content['application/json'].schema.required.push('expiresAt');
    changed.components.schemas.Treasury.required = ['issued'];
    delete changed.components.schemas.UserOnboardingEvent.properties.failed;
    expect(breakingChanges(current, changed).map(nameOf)).toEqual([
      '`POST /api/v1/ufel/partners/api-keys` `body.expiresAt`: now required',
      '`GET /api/v1/laas/coins/treasury` `data.redeemed`: may now be absent',
      '`GET /api/v1/laas/coins/treasury` `data.expired`: may now be absent',
      '`GET /api/v1/laas/coins/treasury` `data.outstanding`: may now be absent',
      '`GET /api/v1/laas/coins/treasury` `data.issuanceLimit`: may now be absent',
      '`GET /api/v1/laas/coins/treasury` `data.defaultValidity`: may now be absent',
      '`PUT /api/v1/laas/coins/treasury` `data.redeemed`: may now be absent',
      '`PUT /api/v1/laas/coins/treasury` `data.expired`: may now be absent',
      '`PUT /api/v1/laas/coins/treasury` `data.outstanding`: may now be absent',
      '`PUT /api/v1/laas/coins/treasury` `data.issuanceLimit`: may now be absent',
      '`PUT /api/v1/laas/coins/treasury` `data.defaultValidity`: may now be absent',
      '`webhook USER_ONBOARDING` `body.failed`: field removed',
    ]);
  });

  it('lets a change through once the Unreleased section names its operation and field', () => {
    const [change] = breakingChanges(current, {
      ...current,
      paths: { ...current.paths, '/api/v1/laas/users': {} },
    });
    const notes = (item: string) => `# Changelog\n\n## Unreleased\n\n### Partners\n${item}\n\n## 1.0.0\n`;
    expect(unnamed([change], notes('- Nothing about it.'))).toEqual([change]);
    expect(unnamed([change], notes('- `GET /api/v1/laas/users` is gone: use the leaderboard.'))).toEqual([]);
    // Named only under a released version does not count.
    expect(unnamed([change], '## Unreleased\n\n## 1.0.0\n- `GET /api/v1/laas/users` removed\n')).toEqual([
      change,
    ]);
  });
});
