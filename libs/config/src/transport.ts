/**
 * How a process reaches NATS and Redis over the network: TLS files and the Redis password. The
 * production overlay requires both (`npm run deploy:check` refuses it without them).
 */

/** Files of `NATS_TLS_*`: the CA that signed the server's certificate, and a client certificate. */
export interface NatsTls {
  caFile?: string;
  certFile?: string;
  keyFile?: string;
}

interface TransportSettings {
  NATS_URL: string;
  NATS_TLS_CA_FILE?: string;
  NATS_TLS_CERT_FILE?: string;
  NATS_TLS_KEY_FILE?: string;
  REDIS_URL: string;
  REDIS_PASSWORD?: string;
  REDIS_TLS_CA_FILE?: string;
}

const defined = <T extends object>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The NATS client's TLS options: required when `NATS_URL` is `tls://` or any file is named. */
export function natsTls(config: TransportSettings): NatsTls | undefined {
  const files = defined({
    caFile: config.NATS_TLS_CA_FILE,
    certFile: config.NATS_TLS_CERT_FILE,
    keyFile: config.NATS_TLS_KEY_FILE,
  });
  const tlsUrl = config.NATS_URL.split(',').every((u) => u.trim().startsWith('tls://'));
  return tlsUrl || Object.keys(files).length ? files : undefined;
}

/** What ioredis takes beside the URL: the password and the CA of a `rediss://` server. */
export function redisOptions(config: TransportSettings, readFile: (path: string) => Buffer) {
  const tls = config.REDIS_TLS_CA_FILE ? { tls: { ca: readFile(config.REDIS_TLS_CA_FILE) } } : {};
  return { ...defined({ password: config.REDIS_PASSWORD }), ...tls };
}
