import { expect, it } from 'vitest';
import { grantCredits } from '../../src/domains/credits/grant-credits.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql } from '../support/http.ts';

const app = useTestApp();

const PAGE = `query($after: String) { creditTransactions(first: 2, after: $after) {
  edges { node { amount type } } pageInfo { hasNextPage endCursor }
} }`;

it('creditTransactions pages the whole ledger newest first by keyset, not shifted by a new move', async () => {
  const account = await accountWithToken(app().em(), { credits: 1 });
  for (const credits of [2, 3, 4])
    await grantCredits(app().em(), { accountId: account.accountId, credits, ref: `t:${credits}` });
  const one = await graphql(app().url, PAGE, {}, account.token);
  expect(one.body.errors).toBeUndefined();
  const first = one.body.data.creditTransactions;
  expect(first.edges.map((e: { node: { amount: number } }) => e.node.amount)).toEqual([4, 3]);
  expect(first.edges[0].node.type).toBe('GRANT');
  await grantCredits(app().em(), { accountId: account.accountId, credits: 9, ref: 't:9' });
  const two = await graphql(app().url, PAGE, { after: first.pageInfo.endCursor }, account.token);
  const second = two.body.data.creditTransactions;
  expect(second.edges.map((e: { node: { amount: number } }) => e.node.amount)).toEqual([2, 1]);
  expect(second.pageInfo.hasNextPage).toBe(false);
});
