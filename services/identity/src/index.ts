export {
  DEVELOPMENT_KEY_ENCRYPTION_KEY,
  keyEncryption,
  parseKeyEncryptionKey,
} from './domain/security/key-encryption.ts';
export { startIdentity } from './service.ts';
