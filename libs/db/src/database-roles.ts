import { createHash, createHmac, pbkdf2Sync, randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A service's database and its two roles, as an administrator sets them up (`npm run db:roles`,
 * `make up`, the test harness): the migration role owns the database and everything in it; the
 * service's role may connect to it alone, use its tables, sequences and functions, and nothing else:
 * no DDL, no other database, no CREATEDB, CREATEROLE or superuser. Idempotent; an existing database
 * (made before per-service roles) has its objects handed to the migration role.
 */
export interface DatabaseRoles {
  /** A superuser, or a role with CREATEROLE and CREATEDB that is a member of the migration role. */
  adminUrl: string;
  /** The service's own URL: its role, password and database. */
  url: string;
  /** The same database as the migration role. */
  migrationUrl: string;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;
/** One administrator at a time: CREATE ROLE, ALTER ROLE and GRANT race on the shared catalogs. */
const LOCK = "hashtext('coin-database-roles')";

/**
 * The SCRAM-SHA-256 verifier Postgres stores for `password`: computed here so that the password
 * itself never reaches the server's statement log.
 */
function scramVerifier(password: string, iterations = 4096): string {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password.normalize('NFKC'), salt, iterations, 32, 'sha256');
  const clientKey = createHmac('sha256', salted).update('Client Key').digest();
  const storedKey = createHash('sha256').update(clientKey).digest();
  const serverKey = createHmac('sha256', salted).update('Server Key').digest();
  return `SCRAM-SHA-256$${iterations}:${salt.toString('base64')}$${storedKey.toString('base64')}:${serverKey.toString('base64')}`;
}

interface Login {
  role: string;
  password: string;
  database: string;
  server: string;
}

function loginOf(url: string, what: string): Login {
  const u = new URL(url);
  const login = {
    role: decodeURIComponent(u.username),
    password: decodeURIComponent(u.password),
    database: decodeURIComponent(u.pathname.slice(1)),
    server: `${u.hostname}:${u.port || 5432}`,
  };
  for (const name of [login.role, login.database])
    if (!IDENTIFIER.test(name)) throw new Error(`${what}: "${name}" must be letters, digits and _`);
  return login;
}

const id = (name: string) => pg.escapeIdentifier(name);

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A login role with no power beyond what is granted to it; its password set when the URL has one. */
async function ensureRole(admin: pg.Client, login: Login): Promise<void> {
  const { rows } = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [login.role]);
  const [self] = (await admin.query<{ me: string }>('SELECT current_user AS me')).rows;
  if (login.role === self.me || login.role === 'postgres')
    throw new Error(`refusing to make the administrator's role ${login.role} a service role`);
  const attributes = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT';
  const password = login.password ? ` PASSWORD ${pg.escapeLiteral(scramVerifier(login.password))}` : '';
  const verb = rows.length ? 'ALTER ROLE' : 'CREATE ROLE';
  await admin.query(`${verb} ${id(login.role)} WITH ${attributes}${password}`);
}

/** Statements handing every object of the schema public not owned by `owner` to it. */
const FOREIGN_OWNED = `
  SELECT format('ALTER %s %s OWNER TO %I', kind, name, $1::text) AS statement FROM (
    SELECT CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                          ELSE 'TABLE' END AS kind, c.oid::regclass::text AS name
      FROM pg_class c
     WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'S')
       AND c.relowner <> $1::regrole
       -- a sequence a column owns follows its table
       AND NOT (c.relkind = 'S' AND EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass
                                              AND d.objid = c.oid AND d.deptype IN ('a', 'i')))
    UNION ALL
    SELECT CASE p.prokind WHEN 'p' THEN 'PROCEDURE' WHEN 'a' THEN 'AGGREGATE' ELSE 'FUNCTION' END,
           p.oid::regprocedure::text
      FROM pg_proc p WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> $1::regrole
    UNION ALL
    SELECT CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype::text
      FROM pg_type t WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd')
       AND t.typowner <> $1::regrole
  ) objects`;

/** The service role's privileges inside its database: on what is there, and on what migrations add. */
function grants(owner: string, role: string): string[] {
  const o = id(owner);
  const r = id(role);
  const defaults = `ALTER DEFAULT PRIVILEGES FOR ROLE ${o} IN SCHEMA public GRANT`;
  return [
    `ALTER SCHEMA public OWNER TO ${o}`,
    'REVOKE ALL ON SCHEMA public FROM PUBLIC',
    `GRANT USAGE ON SCHEMA public TO ${r}`,
    `${defaults} SELECT, INSERT, UPDATE, DELETE ON TABLES TO ${r}`,
    `${defaults} USAGE, SELECT, UPDATE ON SEQUENCES TO ${r}`,
    `${defaults} EXECUTE ON FUNCTIONS TO ${r}`,
    // Functions are executable by PUBLIC unless revoked (a global default: no IN SCHEMA): the
    // ledger's are the wallet role's alone.
    `ALTER DEFAULT PRIVILEGES FOR ROLE ${o} REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC`,
    'REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA public FROM PUBLIC',
    `GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO ${r}`,
    `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO ${r}`,
    `GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA public TO ${r}`,
    // An append-only table (its comment says so: identity's audit log) keeps INSERT and SELECT only.
    `DO $$ DECLARE t regclass; BEGIN
       FOR t IN SELECT c.oid::regclass FROM pg_class c
                 WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'r'
                   AND obj_description(c.oid, 'pg_class') LIKE 'append-only%'
       LOOP EXECUTE format('REVOKE UPDATE, DELETE, TRUNCATE ON %s FROM %I', t, ${pg.escapeLiteral(role)}); END LOOP;
     END $$`,
  ];
}

/** Sets up the roles and the database (see DatabaseRoles); returns how many objects changed owner. */
export async function provisionDatabase(p: DatabaseRoles): Promise<{ created: boolean; reassigned: number }> {
  const service = loginOf(p.url, 'the service URL');
  const owner = loginOf(p.migrationUrl, 'the migration URL');
  if (service.database !== owner.database || service.server !== owner.server)
    throw new Error(
      `the migration URL must name the service's database ${service.server}/${service.database}`,
    );
  if (service.role === owner.role)
    throw new Error(`the service and the migration role must differ (both are ${service.role})`);
  const database = id(service.database);
  const created = await withClient(p.adminUrl, async (admin) => {
    await admin.query(`SELECT pg_advisory_lock(${LOCK})`);
    try {
      await ensureRole(admin, owner);
      await ensureRole(admin, service);
      const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [service.database]);
      if (exists.rowCount) await admin.query(`ALTER DATABASE ${database} OWNER TO ${id(owner.role)}`);
      else await admin.query(`CREATE DATABASE ${database} OWNER ${id(owner.role)}`);
      await admin.query(`REVOKE ALL ON DATABASE ${database} FROM PUBLIC`);
      await admin.query(`GRANT CONNECT, TEMPORARY ON DATABASE ${database} TO ${id(service.role)}`);
      return !exists.rowCount;
    } finally {
      await admin.query(`SELECT pg_advisory_unlock(${LOCK})`).catch(() => undefined);
    }
  });
  const inDatabase = new URL(p.adminUrl);
  inDatabase.pathname = `/${service.database}`;
  const reassigned = await withClient(inDatabase.toString(), async (admin) => {
    const { rows } = await admin.query<{ statement: string }>(FOREIGN_OWNED, [owner.role]);
    for (const { statement } of rows) await admin.query(statement);
    for (const statement of grants(owner.role, service.role)) await admin.query(statement);
    return rows.length;
  });
  return { created, reassigned };
}
