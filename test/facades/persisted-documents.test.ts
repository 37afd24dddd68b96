import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createClient } from 'graphql-ws';
import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { AnswerTags, tagOfAnswer } from '../../facades/graphql/persisted/answer-tags.ts';
import {
  PersistedDocumentStore,
  REGISTRATION_LIMITS,
} from '../../facades/graphql/persisted/document-store.ts';
import { acceptedMediaType } from '../../facades/graphql/persisted/persisted-path.ts';
import { getSchema } from '../../schema/index.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const ME = 'query Me { me { email firstName } }';
/** A field error beside data: a release that is not the caller's. */
const RELEASE = 'query Release($id: ID!) { me { email } release(id: $id) { id title } }';
const FOREIGN_RELEASE = '00000000-0000-4000-8000-000000000001';

interface Answer {
  status: number;
  contentType: string | null;
  text: string;
  headers: Headers;
}

/** The answer with the request id (different on every request) taken out of its text. */
async function answerOf(response: Response): Promise<Answer> {
  const text = (await response.text()).replace(/"requestId":"[^"]*"/g, '"requestId":"…"');
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    headers: response.headers,
  };
}

function client(url: () => string, token?: string) {
  const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  return {
    post: async (body: unknown, headers: Record<string, string> = {}) =>
      answerOf(
        await fetch(`${url()}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...auth, ...headers },
          body: JSON.stringify(body),
        }),
      ),
    get: async (params: Record<string, string>, headers: Record<string, string> = {}) =>
      answerOf(
        await fetch(`${url()}/graphql?${new URLSearchParams(params)}`, { headers: { ...auth, ...headers } }),
      ),
  };
}

const apq = (query: string) => ({ persistedQuery: { version: 1, sha256Hash: sha256(query) } });

describe('persisted documents on /graphql: Automatic Persisted Queries and documentId', () => {
  const app = useTestApp();

  it('APQ: a miss says PersistedQueryNotFound; the text registers it; then the hash alone runs it', async () => {
    const { token } = await accountWithToken(app().em());
    const { post } = client(() => app().url, token);
    const query = `${ME} # ${Math.random()}`;
    const miss = await post({ extensions: apq(query) });
    expect(miss.status).toBe(404);
    expect(JSON.parse(miss.text)).toMatchObject({
      errors: [{ message: 'PersistedQueryNotFound', extensions: { code: 'persisted_query_not_found' } }],
    });
    const registered = await post({ query, extensions: apq(query) });
    expect(registered.status).toBe(200);
    expect(JSON.parse(registered.text)).toMatchObject({ data: { me: { email: expect.any(String) } } });
    const hit = await post({ extensions: apq(query) });
    const text = await post({ query });
    expect(hit).toMatchObject({ status: 200, text: text.text, contentType: text.contentType });
    // The hash must be the text's.
    const mismatch = await post({ query: ME, extensions: apq(`${ME} `) });
    expect(mismatch.status).toBe(400);
    expect(mismatch.text).toContain('persisted_query_hash_mismatch');
  });

  it('answers byte for byte what the text gets: data, field errors, each Accept yoga answers', async () => {
    const { token } = await accountWithToken(app().em());
    const { post } = client(() => app().url, token);
    await post({ query: RELEASE, extensions: apq(RELEASE), variables: { id: FOREIGN_RELEASE } });
    for (const accept of [undefined, 'application/json', 'application/graphql-response+json', '*/*']) {
      const headers: Record<string, string> = accept ? { accept } : {};
      const byText = await post({ query: RELEASE, variables: { id: FOREIGN_RELEASE } }, headers);
      const byHash = await post({ extensions: apq(RELEASE), variables: { id: FOREIGN_RELEASE } }, headers);
      const byId = await post(
        { documentId: `sha256:${sha256(RELEASE)}`, variables: { id: FOREIGN_RELEASE } },
        headers,
      );
      expect(JSON.parse(byText.text)).toMatchObject({ errors: [{ path: ['release'] }] });
      for (const other of [byHash, byId]) {
        expect(other.status, accept).toBe(byText.status);
        expect(other.contentType, accept).toBe(byText.contentType);
        expect(other.text, accept).toBe(byText.text);
      }
    }
    // What the persisted path leaves to yoga is answered as the text is: variables that do not coerce,
    // a signed-out caller, a bad token.
    const cases: [Record<string, unknown>, Record<string, string>][] = [
      [{ variables: { id: 42 } }, {}],
      [{ variables: {} }, {}],
      [{ variables: { id: FOREIGN_RELEASE } }, { authorization: 'Bearer svc_pat_nope' }],
    ];
    for (const [body, headers] of cases) {
      const byText = await post({ query: RELEASE, ...body }, headers);
      const byHash = await post({ extensions: apq(RELEASE), ...body }, headers);
      expect(byHash.status, JSON.stringify(body)).toBe(byText.status);
      expect(byHash.text, JSON.stringify(body)).toBe(byText.text);
    }
  });

  it('documentId over GET: an ETag, Cache-Control private, and a 304 when nothing changed', async () => {
    const account = await accountWithToken(app().em());
    const { post, get } = client(() => app().url, account.token);
    await post({ query: ME, extensions: apq(ME) });
    const first = await get({ documentId: `sha256:${sha256(ME)}` });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.text)).toMatchObject({ data: { me: { email: account.email } } });
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await get({ documentId: `sha256:${sha256(ME)}` }, { 'if-none-match': tag! });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    // Another caller's answer differs, and so does its tag.
    const other = await accountWithToken(app().em());
    const theirs = await client(() => app().url, other.token).get(
      { documentId: `sha256:${sha256(ME)}` },
      { 'if-none-match': tag! },
    );
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('etag')).not.toBe(tag);
    // A mutation is not run by GET (yoga's 405), and an unknown id is a 404.
    const unknown = await get({ documentId: `sha256:${'0'.repeat(64)}` });
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain('persisted_query_not_found');
  });

  it('a GET URL is read once and then serves every request for it, as the text would be answered', async () => {
    const accounts = [await accountWithToken(app().em()), await accountWithToken(app().em())];
    await client(() => app().url, accounts[0]!.token).post({ query: RELEASE, extensions: apq(RELEASE) });
    for (const variables of [{ id: FOREIGN_RELEASE }, { id: 42 }]) {
      for (const account of [...accounts, ...accounts]) {
        const { get } = client(() => app().url, account.token);
        const byText = await get({ query: RELEASE, variables: JSON.stringify(variables) });
        const byId = await get({
          documentId: `sha256:${sha256(RELEASE)}`,
          variables: JSON.stringify(variables),
        });
        expect(byId.status, JSON.stringify(variables)).toBe(byText.status);
        expect(byId.text, JSON.stringify(variables)).toBe(byText.text);
      }
    }
  });

  it("a polled GET's tag follows its answer: changed, the old tag gets the new answer", async () => {
    const account = await accountWithToken(app().em());
    const { post, get } = client(() => app().url, account.token);
    await post({ query: ME, extensions: apq(ME) });
    const poll = (tag?: string) =>
      get({ documentId: `sha256:${sha256(ME)}` }, tag ? { 'if-none-match': tag } : {});
    const first = await poll();
    const before = first.headers.get('etag')!;
    expect(before).toBe(tagOfAnswer(first.text));
    expect((await poll(before)).status).toBe(304);

    await app()
      .em()
      .transactional((tem) =>
        tem.execute('update accounts set first_name = ? where id = ?', ['Renamed', account.accountId]),
      );
    const changed = await poll(before);
    expect(changed.status).toBe(200);
    expect(JSON.parse(changed.text)).toMatchObject({ data: { me: { firstName: 'Renamed' } } });
    const after = changed.headers.get('etag')!;
    expect(after).not.toBe(before);
    expect(after).toBe(tagOfAnswer(changed.text));
    expect((await poll(after)).status).toBe(304);
    expect((await poll(before)).status).toBe(200);
  });

  it('a document over the limits is refused when it would register, and stays unregistered', async () => {
    const { token } = await accountWithToken(app().em());
    const { post } = client(() => app().url, token);
    const aliases = Array.from({ length: 31 }, (_, n) => `a${n}: me { email }`).join(' ');
    const deep = `query ManyAliases { ${aliases} }`;
    const refused = await post({ query: deep, extensions: apq(deep) });
    expect(refused.text).toContain('too_many_aliases');
    // Refused as the text alone is (yoga's status for a validation error under this Accept).
    const byText = await post({ query: deep });
    expect(refused).toMatchObject({ status: byText.status, text: byText.text });
    const after = await post({ extensions: apq(deep) });
    expect(after.status).toBe(404);
  });

  it('registration is bounded: a caller registers at most its share a minute', async () => {
    const { token } = await accountWithToken(app().em());
    const { post } = client(() => app().url, token);
    const answers: number[] = [];
    for (let n = 0; n <= REGISTRATION_LIMITS.perCallerPerMinute; n++) {
      const query = `query Flood${n} { me { email } }`;
      answers.push((await post({ query, extensions: apq(query) })).status);
    }
    expect(answers.slice(0, -1).every((status) => status === 200)).toBe(true);
    const last = await post({
      query: 'query FloodOver { me { email } }',
      extensions: apq('query FloodOver { me { email } }'),
    });
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    // The refusal names its budget: in the RateLimit headers, and in the error's extensions.
    const retryAfter = Number(last.headers.get('retry-after'));
    expect(last.headers.get('ratelimit')).toBe(`"graphql-document-registration";r=0;t=${retryAfter}`);
    expect(JSON.parse(last.text).errors[0].extensions).toMatchObject({
      type: 'rate_limit_error',
      retryAfterSeconds: retryAfter,
      rateLimit: {
        policy: 'graphql-document-registration',
        quota: REGISTRATION_LIMITS.perCallerPerMinute,
        windowSeconds: 60,
        remaining: 0,
        resetSeconds: retryAfter,
      },
    });
    // Documents already registered still run by their hash.
    expect((await post({ extensions: apq('query Flood0 { me { email } }') })).status).toBe(200);
  });
});

describe('documents sent as text: parsed and validated once, run compiled from their second run', () => {
  const app = useTestApp();

  it("answers byte for byte what yoga's generic path answers, on the first run and compiled ones", async () => {
    const { token } = await accountWithToken(app().em());
    const { post, get } = client(() => app().url, token);
    // An Origin header sends a request through yoga (for its CORS headers): the reference answer.
    const viaYoga = { origin: 'http://elsewhere.example' };
    const documents: [string, Record<string, unknown>][] = [
      [`${ME} # ${Math.random()}`, {}],
      [`${RELEASE} # ${Math.random()}`, { id: FOREIGN_RELEASE }],
      [`{ __typename } # ${Math.random()}`, {}],
    ];
    for (const [query, variables] of documents) {
      for (let run = 1; run <= 3; run++) {
        for (const accept of ['application/json', 'application/graphql-response+json']) {
          const fast = await post({ query, variables }, { accept });
          const generic = await post({ query, variables }, { accept, ...viaYoga });
          expect(fast.status, `${query} run ${run}`).toBe(generic.status);
          expect(fast.contentType).toBe(generic.contentType);
          expect(fast.text, `${query} run ${run}`).toBe(generic.text);
        }
        const fastGet = await get({ query, variables: JSON.stringify(variables) });
        const genericGet = await get({ query, variables: JSON.stringify(variables) }, viaYoga);
        expect(fastGet.text).toBe(genericGet.text);
      }
    }
  });

  it('leaves to yoga what yoga words: a browser page load, an unknown operation name, a syntax error', async () => {
    const { token } = await accountWithToken(app().em());
    const { post, get } = client(() => app().url, token);
    const page = await get({ query: ME }, { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
    expect(page.contentType).toMatch(/^text\/html/);
    const viaYoga = { origin: 'http://elsewhere.example' };
    for (const body of [{ query: ME, operationName: 'Other' }, { query: '{ me { email }' }]) {
      const answer = await post(body);
      expect(answer.text).toMatch(/Could not determine|Syntax Error/);
      expect(answer.text).toBe((await post(body, viaYoga)).text);
    }
  });
});

describe('the media type a regular answer is written in, as yoga chooses it', () => {
  it('takes the first type the client lists that a JSON answer can have', () => {
    expect(acceptedMediaType(undefined)).toBe('application/json');
    expect(acceptedMediaType('*/*')).toBe('application/json');
    expect(acceptedMediaType('application/graphql-response+json')).toBe('application/graphql-response+json');
    expect(acceptedMediaType('application/graphql-response+json, application/json;q=0.9')).toBe(
      'application/graphql-response+json',
    );
    expect(acceptedMediaType('application/json, application/graphql-response+json')).toBe('application/json');
    expect(acceptedMediaType('application/*')).toBe('application/json');
    expect(acceptedMediaType('application/json; charset=latin1')).toBeNull();
    expect(acceptedMediaType('text/event-stream')).toBeNull();
    expect(acceptedMediaType('text/html, */*;q=0.8')).toBeNull();
  });
});

describe("a GET answer's tag", () => {
  it("is its answer's SHA-256 whoever asked for the URL, kept answers compared whole", () => {
    const tags = new AnswerTags();
    const url = '/?documentId=sha256%3Aabc';
    const answer = JSON.stringify({ data: { me: { email: 'a@example.com' } } });
    expect(tags.tagFor(url, answer)).toBe(tagOfAnswer(answer));
    // The same text in another string (every request serialises its own): the kept tag.
    expect(tags.tagFor(url, JSON.stringify(JSON.parse(answer)))).toBe(tagOfAnswer(answer));
    // Another answer for the URL (another caller, or a change): its own tag, then kept in turn.
    const other = answer.replace('a@', 'b@');
    expect(tags.tagFor(url, other)).toBe(tagOfAnswer(other));
    expect(tags.tagFor(url, answer)).toBe(tagOfAnswer(answer));
    expect(tagOfAnswer(other)).not.toBe(tagOfAnswer(answer));
    expect(tagOfAnswer(answer)).toMatch(/^"[\w-]{27}"$/);
  });
});

describe('the store keeps a bounded number of registered documents', () => {
  it('evicts the least recently used beyond its size; manifest documents stay', () => {
    const store = new PersistedDocumentStore(getSchema(), 3);
    store.addTrusted('manifest-1', '{ __typename }');
    const texts = [0, 1, 2, 3, 4].map((n) => `query Q${n} { __typename }`);
    store.register(texts[0]!);
    store.register(texts[1]!);
    store.register(texts[2]!);
    expect(store.find(sha256(texts[0]!))).toBeDefined(); // used: now the most recent
    store.register(texts[3]!);
    store.register(texts[4]!);
    expect(store.registeredCount).toBe(3);
    expect(store.find(sha256(texts[1]!))).toBeUndefined();
    expect(store.find(sha256(texts[2]!))).toBeUndefined();
    expect(store.find(sha256(texts[0]!))).toBeDefined();
    expect(store.find('manifest-1')?.trusted).toBe(true);
  });
});

describe('trusted documents only (GRAPHQL_TRUSTED_DOCUMENTS_ONLY)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-documents-'));
  const manifest = path.join(dir, 'persisted-documents.json');
  const sha1 = createHash('sha1').update(ME).digest('hex');
  writeFileSync(manifest, JSON.stringify({ [sha1]: ME }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const app = useTestApp({ GRAPHQL_DOCUMENTS_FILE: manifest, GRAPHQL_TRUSTED_DOCUMENTS_ONLY: 'true' });

  it("runs the manifest's documents, by id or text, and refuses any other with a clear error", async () => {
    const { token, email } = await accountWithToken(app().em());
    const { post, get } = client(() => app().url, token);
    for (const answer of [
      await post({ documentId: sha1 }),
      await get({ documentId: sha1 }),
      await post({ documentId: `sha256:${sha256(ME)}` }),
      await post({ query: ME }),
    ]) {
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text)).toEqual({ data: { me: { email, firstName: expect.anything() } } });
    }
    const other = '{ me { email } }';
    for (const refused of [
      await post({ query: other }),
      await post({ query: other, extensions: apq(other) }),
    ]) {
      expect(refused.status).toBe(403);
      expect(JSON.parse(refused.text)).toMatchObject({
        errors: [{ extensions: { type: 'permission_error', code: 'trusted_documents_only' } }],
      });
      expect(refused.text).toContain('GRAPHQL_DOCUMENTS_FILE');
    }
  });

  it('over WebSocket too: the manifest documents run, any other is refused', async () => {
    const { token, email } = await accountWithToken(app().em());
    const ws = createClient({
      url: `${app().url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${token}` },
      retryAttempts: 0,
      lazy: true,
    });
    const first = async (query: string) => {
      const iterator = ws.iterate({ query });
      try {
        return (await iterator.next()).value;
      } catch (errors) {
        return { errors };
      } finally {
        await iterator.return?.();
      }
    };
    try {
      expect(await first(ME)).toMatchObject({ data: { me: { email } } });
      expect(await first('{ me { email } }')).toMatchObject({
        errors: [{ extensions: { type: 'permission_error', code: 'trusted_documents_only' } }],
      });
    } finally {
      await ws.dispose();
    }
  });
});
