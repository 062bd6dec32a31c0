import { handle } from '@coin/bus';
import { team } from '@coin/contracts';
import type { IdentityDeps } from '../deps.ts';
import { auditPage } from '../domain/audit/audit-log.ts';

export function listAuditLogHandler(deps: IdentityDeps) {
  return handle(team.listAuditLog, ({ partnerId, query }) => auditPage(deps.db.em, partnerId, query));
}
