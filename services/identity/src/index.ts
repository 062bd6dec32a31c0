export {
  DEVELOPMENT_KEY_ENCRYPTION_KEY,
  keyEncryption,
  parseKeyEncryptionKey,
} from './security/key-encryption.ts';
export { startIdentity } from './service.ts';
