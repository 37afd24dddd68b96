/**
 * Property-based fuzzing of every surface: each REST route, agent HTTP route, GraphQL root field, agent
 * tool and byte route gets generated and mutated bodies, headers and encodings. Invariants: no 5xx but
 * the documented upstream ones, every error in its surface's envelope, and the server still serving.
 * FUZZ_REQUESTS (default 3,000) and FUZZ_SEED (default fixed, printed) reproduce a run.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { type Answer, contractProblem } from './invariants.ts';
import { allTargets, type Fixtures, type FuzzRequest } from './targets.ts';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const CONCURRENCY = 8;

const app = useTestApp({ OUTBOUND_TIMEOUT_SECONDS: '2', LOG_LEVEL: 'silent' });
let fixtures: Fixtures;

beforeAll(async () => {
  const account = await accountWithToken(app().em(), { credits: 50 });
  const assets = await uploadAssets(app().url, account);
  const submission = validSubmission(assets, 2);
  const draft = await request(app().url, 'POST', '/v1/drafts', { token: account.token, body: submission });
  fixtures = { token: account.token, releaseId: draft.body.releaseId, submission, coverUrl: assets.coverUrl };
}, 60_000);

async function send(req: FuzzRequest): Promise<Answer | Error> {
  try {
    const response = await fetch(`${app().url}${req.path}`, {
      method: req.method,
      headers: req.headers,
      body: req.body as BodyInit | undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(15_000),
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type') ?? '',
      text: await response.text(),
    };
  } catch (error) {
    return error as Error;
  }
}

async function alive(): Promise<boolean> {
  const answer = await send({
    surface: 'rest',
    target: 'status',
    method: 'GET',
    path: '/v1/status',
    headers: {},
  });
  return !(answer instanceof Error) && answer.status === 200;
}

function describeBody(body: FuzzRequest['body']): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body : `<${body.length} bytes>`;
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
}

describe('fuzzing every surface', () => {
  it(`${REQUESTS} generated requests: no 5xx, every error in its envelope, the server still serving`, async () => {
    const targets = allTargets(fixtures);
    const requests = fc.sample(fc.oneof(...targets.map((t) => t.arbitrary)), {
      numRuns: REQUESTS,
      seed: SEED,
    });
    const failures = new Map<string, { count: number; example: string }>();
    let serverErrors = 0;
    let crashes = 0;
    let next = 0;
    const worker = async () => {
      while (next < requests.length) {
        const req = requests[next++]!;
        const answer = await send(req);
        let problem: string | null;
        if (answer instanceof Error) {
          crashes += (await alive()) ? 0 : 1;
          problem = `no answer: ${answer.message}`;
        } else {
          if (answer.status >= 500) serverErrors += 1;
          problem = contractProblem(req, answer);
        }
        if (problem === null) continue;
        const key = `${req.target}: ${problem}`;
        const seen = failures.get(key);
        if (seen) seen.count += 1;
        else
          failures.set(key, {
            count: 1,
            example: `${req.method} ${req.path} ${JSON.stringify(req.headers)} ${describeBody(req.body)} -> ${
              answer instanceof Error ? answer.message : `${answer.status} ${answer.text.slice(0, 300)}`
            }`,
          });
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const stillServing = await alive();
    if (!stillServing) crashes += 1;
    console.log(`fuzz: ${requests.length} requests, ${serverErrors} 5xx, ${crashes} crashes (seed ${SEED})`);
    const report = [...failures.entries()].map(([key, f]) => `${key} (x${f.count})\n    ${f.example}`);
    if (report.length > 0) console.log(`distinct failures:\n${report.join('\n')}`);
    expect(stillServing).toBe(true);
    expect(crashes).toBe(0);
    expect(serverErrors).toBe(0);
    expect(report).toEqual([]);
  }, 120_000);

  it('covers every REST route, agent HTTP route, GraphQL root field and tool', () => {
    const names = allTargets(fixtures).map((t) => t.name);
    expect(names.filter((n) => n.startsWith('GET /v1') || n.startsWith('POST /v1')).length).toBeGreaterThan(
      20,
    );
    expect(names.some((n) => n.startsWith('mutation submitRelease'))).toBe(true);
    expect(names).toContain('POST /api/mcp');
  });
});
