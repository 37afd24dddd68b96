import { describe, expect, it } from 'vitest';
import { ReleaseShape, TrackShape } from '../../schema/releases/release-shape.ts';
import { fromWire } from '../../schema/wire-shape.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { graphql, request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';

const app = useTestApp();

describe('the submit channel belongs to the facade, not to the caller', () => {
  it('GraphQL has no argument to pick a channel (or its rate limit)', async () => {
    const account = await accountWithToken(app().em(), { credits: 5 });
    const assets = await uploadAssets(app().url, account);
    const { release, tracks } = validSubmission(assets, 1);
    for (const via of ['agent_http', 'api']) {
      const answer = await graphql(
        app().url,
        `mutation($input: SubmitReleaseInput!) { submitRelease(input: $input, via: ${via}) { releaseId } }`,
        {
          input: {
            release: fromWire(ReleaseShape, release),
            tracks: tracks.map((track) => fromWire(TrackShape, track)),
          },
        },
        account.token,
      );
      expect(answer.body.errors?.[0]?.message).toContain('Unknown argument "via"');
      expect(answer.body.data).toBeUndefined();
    }
  });

  it('the agent HTTP allowance cannot be side-stepped from the agent HTTP endpoint by naming another channel', async () => {
    const account = await accountWithToken(app().em(), { credits: 20 });
    const assets = await uploadAssets(app().url, account);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await request(app().url, 'POST', '/api/mcp/submit', {
        token: account.token,
        body: { ...validSubmission(assets, 1), via: 'api', channel: 'rest' },
      });
      statuses.push(answer.status);
    }
    expect(statuses).toEqual([201, 201, 201, 429]);
  });
});
