import { PartnersAndTokens } from './0001-partners-and-tokens.ts';

export const identityMigrations = [{ name: '0001-partners-and-tokens', class: PartnersAndTokens }];
