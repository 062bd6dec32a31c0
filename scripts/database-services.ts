/** The services that own a database (they have migrations), and their committed migrations. */
import { existsSync, readdirSync } from 'node:fs';
import type { migrateDatabase } from '@coin/db';

type Migrations = Parameters<typeof migrateDatabase>[0]['migrations'];

const ROOT = new URL('../', import.meta.url);

/** Every service with `src/migrations/index.ts`, or the ones named (each checked). */
export function databaseServices(named: readonly string[] = []): string[] {
  const all = readdirSync(new URL('services', ROOT)).filter((s) =>
    existsSync(new URL(`services/${s}/src/migrations/index.ts`, ROOT)),
  );
  for (const name of named)
    if (!all.includes(name)) throw new Error(`${name}: no service owns a database of that name`);
  return named.length ? [...named] : all;
}

export async function serviceMigrations(service: string): Promise<Migrations> {
  const module = await import(new URL(`services/${service}/src/migrations/index.ts`, ROOT).href);
  const migrations = module[`${service}Migrations`];
  if (!Array.isArray(migrations)) throw new Error(`services/${service}: no ${service}Migrations export`);
  return migrations;
}
