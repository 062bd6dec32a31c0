import { PartnersAndTokens } from './0001-partners-and-tokens.ts';
import { AccountUsers } from './0002-account-users.ts';

export const identityMigrations = [
  { name: '0001-partners-and-tokens', class: PartnersAndTokens },
  { name: '0002-account-users', class: AccountUsers },
];
