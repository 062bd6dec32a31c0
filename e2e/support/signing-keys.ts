import { DEVELOPMENT_KEY_ENCRYPTION_KEY, keyEncryption, parseKeyEncryptionKey } from '@coin/identity';
import { importJWK, type JWK } from 'jose';
import pg from 'pg';

export interface SigningKeyRow {
  kid: string;
  private_jwk: JWK | null;
  private_key_encrypted: string | null;
  activated_at: Date | null;
  retired_at: Date | null;
}

/** Identity's signing-key rows as stored, newest activation first. */
export async function signingKeyRows(databaseUrl: string): Promise<SigningKeyRow[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT kid, private_jwk, private_key_encrypted, activated_at, retired_at FROM signing_keys
        ORDER BY activated_at DESC NULLS LAST, kid DESC`,
    );
    return rows;
  } finally {
    await client.end();
  }
}

/** Every private key as identity decrypts it (with the stack's KEY_ENCRYPTION_KEY or the development key). */
export async function decryptedSigningKeys(env: NodeJS.ProcessEnv) {
  const kek = keyEncryption(parseKeyEncryptionKey(env.KEY_ENCRYPTION_KEY ?? DEVELOPMENT_KEY_ENCRYPTION_KEY)!);
  return (await signingKeyRows(env.IDENTITY_DATABASE_URL!)).map((row) => ({
    ...row,
    jwk: JSON.parse(kek.decrypt(row.private_key_encrypted!, row.kid)) as JWK,
  }));
}

/** The active private key, to sign tokens the way identity would. */
export async function activeSigningKey(env: NodeJS.ProcessEnv) {
  const row = (await decryptedSigningKeys(env)).find((r) => r.retired_at === null)!;
  return { kid: row.kid, privateKey: await importJWK(row.jwk, 'EdDSA') };
}
