import { CoinApiError } from './errors.ts';

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

/** Exchanges a refresh token for a new pair (the client's `refreshTokens` call). */
export type RefreshCall = (refreshToken: string) => Promise<Tokens>;

/**
 * Where the client's bearer token comes from. After a 401, `refresh` is asked once with the token
 * that was refused; it returns the token to try again with, or undefined (the 401 then stands).
 */
export interface Credentials {
  token(): string | undefined;
  refresh?(refused: string | undefined, refreshCall: RefreshCall): Promise<string | undefined>;
}

/** A secret API key (`ck_live_…`): it does not expire, so there is nothing to refresh. */
export function apiKey(key: string): Credentials {
  return { token: () => key };
}

/** No credentials: sign-up, login, refresh and account users need none. */
export const anonymous: Credentials = { token: () => undefined };

export interface TokenPairCredentials extends Credentials {
  set(tokens: Tokens | undefined): void;
  current(): Tokens | undefined;
}

/**
 * Login tokens, refreshed when the access token is refused. Refresh tokens are single-use and a
 * reused one revokes the whole family, so concurrent 401s share one refresh, and a call refused
 * with a token that has since been replaced simply retries with the new one.
 * `onTokens` sees every new pair (store it), and undefined when the session has ended.
 */
export function tokenPair(
  initial?: Tokens,
  onTokens: (tokens: Tokens | undefined) => void = () => undefined,
): TokenPairCredentials {
  let tokens = initial;
  let inflight: Promise<string | undefined> | undefined;
  const set = (next: Tokens | undefined) => {
    tokens = next;
    onTokens(next);
  };
  return {
    token: () => tokens?.accessToken,
    current: () => tokens,
    set,
    refresh(refused, refreshCall) {
      if (tokens && tokens.accessToken !== refused) return Promise.resolve(tokens.accessToken);
      if (!tokens) return Promise.resolve(undefined);
      inflight ??= refreshCall(tokens.refreshToken)
        .then(
          (next) => {
            set(next);
            return next.accessToken;
          },
          (err: unknown) => {
            // Only a refusal ends the session; a network failure leaves the tokens for the next try.
            if (!(err instanceof CoinApiError) || err.status >= 500) throw err;
            set(undefined);
            return undefined;
          },
        )
        .finally(() => {
          inflight = undefined;
        });
      return inflight;
    },
  };
}
