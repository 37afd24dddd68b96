/**
 * Releases for the dashboard's Releases and Release pages: an account that signs in by password and
 * submits through the REST API (one cover and one audio file, uploaded once), and what a page's rows
 * and navigations are, read in the browser.
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { issueToken } from '../../src/domains/accounts/issue-token.ts';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
import { request } from './http.ts';
import { accountWithPassword } from './oauth.ts';
import { type Assets, uploadAssets, validSubmission } from './releases.ts';

export interface Artist {
  id: string;
  email: string;
  password: string;
  token: string;
}

/** An account with a password (for the sign-in form), a token (for the API) and credits. */
export async function artistAccount(em: EntityManager, email: string, credits = 0): Promise<Artist> {
  const account = await accountWithPassword(em, email);
  const { token } = await issueToken(em, {
    accountId: account.id,
    name: 'dashboard test',
    scopes: ['svc:mcp'],
    expires: 'none',
  });
  if (credits) await grantCredits(em, { accountId: account.id, credits, ref: 'test:seed' });
  return { ...account, token };
}

export async function assetsOf(baseUrl: string, artist: Artist): Promise<Assets> {
  return uploadAssets(baseUrl, {
    accountId: artist.id,
    email: artist.email,
    token: artist.token,
    tokenId: '',
  });
}

/** Submits a release of one track (POST /v1/releases, about 35 ms), answering its id. */
export async function submitRelease(
  baseUrl: string,
  artist: Artist,
  assets: Assets,
  options: { title: string; isrc?: string; storeIds?: number[] },
): Promise<string> {
  const body = validSubmission(assets, 1);
  body.release.title = options.title;
  body.tracks[0]!.title = options.title;
  if (options.isrc) body.tracks[0]!.isrc = options.isrc;
  if (options.storeIds) body.release.distribution_store_ids = options.storeIds;
  const answer = await request(baseUrl, 'POST', '/v1/releases', { token: artist.token, body });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.releaseId as string;
}

/** A draft without cover art (POST /v1/drafts), answering its id. */
export async function saveDraft(baseUrl: string, artist: Artist, title: string): Promise<string> {
  const answer = await request(baseUrl, 'POST', '/v1/drafts', {
    token: artist.token,
    body: { release: { title, primary_artist_name: 'Lena Marlow' } },
  });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.releaseId as string;
}

/**
 * Counts the page's top-level navigations from now on: a page that updates itself keeps it at 0, a
 * reload or a link followed adds one.
 */
export function countNavigations(page: Page): () => number {
  let count = 0;
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) count++;
  });
  return () => count;
}
