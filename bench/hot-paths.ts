/**
 * The hot read paths side by side in one run, at 1 and 10 connections: bare express (constant JSON),
 * GET /v1/status, GET /v1/me, GET /v1/releases/{id}/status of a release with 25 stores, the same status
 * over GraphQL (as text, by a persisted document's id over POST and over GET, and as a different text
 * each request), through the agent tool (tools/call get_release_status), and bare express answering a
 * POST of a small JSON body (what a body costs node and express alone), then bare express sending the
 * REST status answer's bytes to a GET and the agent's answer's bytes to the agent's POST (what HTTP alone
 * makes of the two surfaces' requests and answers; the agent's answer is twice the bytes). Each row also reports the
 * server process's CPU time per request (from /proc), which other work on the machine moves less than
 * throughput, and the GraphQL rows are compared with REST by it too. Rows take turns in rounds
 * (BENCH_ROUNDS, default 3) and each row shows its median round. Targets as ratios to bare
 * express in the same run: release status ≥ 0.40 at 10 connections and ≥ 0.50 at 1 with p99 ≤ 2 ms; me
 * ≥ 0.30; /v1/status ≥ 0.60. And to the REST status route: GraphQL by a persisted document ≥ 0.90 (p99
 * ≤ 2 ms at 1 connection), as text ≥ 0.60, the agent tool ≥ 0.85.
 *
 * Then the facades' own cost, in-process (no HTTP, which costs every surface the same socket work): the
 * status operation run as the GraphQL core runs it (authenticate, runOperation, the answer's bytes)
 * against the REST route's and the agent tool's whole handling of the same call (reading the variables
 * from the request, or dispatching the JSON-RPC message, then the same operation and the answer's bytes:
 * every surface ends with the UTF-8 body it sends). Target: REST and agent ≤ 10% apart from GraphQL
 * in-process. The agent's answer carries the value's JSON text a second time, as an escaped string:
 * that copy is measured alone beside them.
 */
import { createHash } from 'node:crypto';
import type { Request } from 'express';
import { compileRoutes, variablesFor } from '../facades/rest/router.ts';
import { restRoutes } from '../facades/rest/routes/index.ts';
import { stringifyAnswer } from '../facades/rpc/answer-json.ts';
import { compileTools } from '../facades/rpc/registry.ts';
import { agentResources, compileResources } from '../facades/rpc/resources.ts';
import { answerMessage, createRpcServer } from '../facades/rpc/server.ts';
import { agentTools, documentedAliases } from '../facades/rpc/tools/index.ts';
import { authenticate } from '../schema/context.ts';
import { prepareOperation, runOperation } from '../schema/execute.ts';
import { buildAppServices, closeAppServices } from '../schema/services.ts';
import { DEFAULT_STORE_IDS } from '../src/domains/catalog/stores.ts';
import { loadConfig } from '../src/platform/config.ts';
import { createLogger } from '../src/platform/logger.ts';
import { uploadAssets, validSubmission } from '../test/support/releases.ts';
import {
  type Measurement,
  measureHttp,
  measureInterleaved,
  median,
  medianRound,
  printTable,
} from './support/measure.ts';
import { benchApp, profileArguments, startChild } from './support/servers.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
/** `BENCH_PARTS=http` or `in-process` runs one half alone (default: both). */
const PARTS = process.env.BENCH_PARTS ?? 'http,in-process';
/** `BENCH_CONNECTIONS=10` measures one connection count alone (default: 1 and 10). */
const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '1,10').split(',').map(Number);
/** `BENCH_ONLY=persisted` runs only the HTTP rows whose label holds it, without ratios (to profile one). */
const ONLY = process.env.BENCH_ONLY;
/** `BENCH_ROUNDS=1` measures each row in one stretch (default: 3 rounds, rows taking turns). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const STORES = 25;
const STATUS_QUERY = `query ReleaseStatus($id: ID!) { status: releaseStatus(releaseId: $id) {
  releaseId aggregateStatus pending stores { storeId storeName statusText urlInStore } fallback fallbackReason } }`;

const bench = await benchApp('tributary_bench_hot_paths', { credits: 1000 });
const { app, account, orm } = bench;
// Profiled beside the service with BENCH_CPU_PROF (each process writes its own file).
const bare = await startChild('bench/support/bare-express.ts', {}, /listening on (\S+)/, profileArguments());
const auth = { authorization: `Bearer ${account.token}` };

// Closed at the end: the in-process services' timers would keep the process alive.
const closing: (() => Promise<void>)[] = [];
try {
  const assets = await uploadAssets(app.url, account);
  const submission = validSubmission(assets, 2);
  submission.release.distribution_store_ids = DEFAULT_STORE_IDS.slice(0, STORES);
  const submitted = await fetch(`${app.url}/v1/releases`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify(submission),
  });
  const releaseId = ((await submitted.json()) as { releaseId: string }).releaseId;
  const first = (await (
    await fetch(`${app.url}/v1/releases/${releaseId}/status`, { headers: auth })
  ).json()) as {
    stores: unknown[];
  };
  if (first.stores.length !== STORES) throw new Error(`the release has ${first.stores.length} stores`);

  const services = await buildAppServices(
    loadConfig({ DATABASE_URL: bench.databaseUrl, DATA_DIR: bench.dataDir }),
    orm,
    createLogger('silent'),
    'bench',
  );
  closing.push(() => closeAppServices(services));
  const prepared = prepareOperation(STATUS_QUERY);
  const graphqlBody = JSON.stringify({ query: STATUS_QUERY, variables: { id: releaseId } });
  // The same document by reference: registered once (Automatic Persisted Queries), then named by hash.
  const statusHash = createHash('sha256').update(STATUS_QUERY).digest('hex');
  const persistedQuery = { version: 1, sha256Hash: statusHash };
  const registration = await fetch(`${app.url}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: STATUS_QUERY,
      variables: { id: releaseId },
      extensions: { persistedQuery },
    }),
  });
  if (registration.status !== 200) throw new Error(`registering the status document: ${registration.status}`);
  const persistedBody = JSON.stringify({ documentId: `sha256:${statusHash}`, variables: { id: releaseId } });
  const persistedGet = `${app.url}/graphql?${new URLSearchParams({
    documentId: `sha256:${statusHash}`,
    variables: JSON.stringify({ id: releaseId }),
  })}`;
  // A document the server has never seen, every request (a comment makes each text new).
  let fresh = 0;
  const newDocument = (request: { body?: string | Buffer }) => {
    fresh += 1;
    return {
      ...request,
      body: JSON.stringify({ query: `${STATUS_QUERY} # ${fresh}`, variables: { id: releaseId } }),
    };
  };
  const toolBody = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_release_status', arguments: { releaseId } },
  });
  const json = { ...auth, 'content-type': 'application/json' };
  // The floor's pair: bare express sends the REST answer's bytes to a GET and the agent's to its POST.
  const restAnswer = await (
    await fetch(`${app.url}/v1/releases/${releaseId}/status`, { headers: auth })
  ).text();
  const agentAnswer = await (
    await fetch(`${app.url}/api/mcp`, { method: 'POST', headers: json, body: toolBody })
  ).text();
  const stored = await fetch(`${bare.url}/answers`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ get: restAnswer, post: agentAnswer }),
  });
  if (stored.status !== 204) throw new Error(`bare express refused the answers: ${stored.status}`);

  const statusRoute = compileRoutes(restRoutes).find(
    (entry) => entry.route.operationId === 'getReleaseStatus',
  );
  if (!statusRoute) throw new Error('no getReleaseStatus route');
  const restRequest = {
    method: 'GET',
    params: { id: releaseId },
    query: {},
    headers: {},
    body: undefined,
    get: () => undefined,
  } as unknown as Request;
  const surface = {
    app: services,
    tools: compileTools(agentTools, documentedAliases),
    resources: compileResources(agentResources),
  };
  const rpc = createRpcServer(surface);
  const toolMessage = JSON.parse(toolBody) as object;
  const sample = await answerMessage(surface, rpc, toolMessage, {
    principal: await authenticate(services, account.token),
    requestId: 'bench',
  });
  // The JSON text of the tool's value, which the protocol carries again as a string (escaped).
  if (!sample || sample.error) throw new Error(`tools/call failed: ${JSON.stringify(sample)}`);
  const answerText = (sample.result as { content: { text: string }[] }).content[0]!.text;
  const inProcessCalls: Record<string, () => Promise<void>> = {
    'GraphQL core (runOperation)': async () => {
      const principal = await authenticate(services, account.token);
      const result = await runOperation(services, prepared, {
        principal,
        channel: 'graphql',
        variables: { id: releaseId },
      });
      if (result.errors.length > 0) throw result.errors[0];
      Buffer.from(JSON.stringify(result));
    },
    'REST route handling': async () => {
      const principal = await authenticate(services, account.token);
      const variables = variablesFor(restRequest, statusRoute.route);
      const result = await runOperation(services, statusRoute.operation, {
        principal,
        channel: 'rest',
        variables,
      });
      if (result.errors.length > 0) throw result.errors[0];
      Buffer.from(
        JSON.stringify(statusRoute.route.select ? result.data?.[statusRoute.route.select] : result.data),
      );
    },
    'agent tools/call dispatch': async () => {
      const principal = await authenticate(services, account.token);
      const answer = await answerMessage(surface, rpc, toolMessage, { principal, requestId: 'bench' });
      if (!answer || 'error' in answer || (answer.result as { isError?: boolean }).isError) {
        throw new Error(JSON.stringify(answer));
      }
      Buffer.from(stringifyAnswer(answer));
    },
    'escaping the answer text alone (the protocol’s copy)': async () => {
      JSON.stringify(answerText);
    },
  };

  type Target = Parameters<typeof measureHttp>[1];
  const scenarios = (connections: number) =>
    (
      [
        ['bare express', { url: `${bare.url}/v1/me` }],
        ['GET /v1/status', { url: `${app.url}/v1/status` }],
        ['GET /v1/me', { url: `${app.url}/v1/me`, headers: auth }],
        [
          `GET /v1/releases/{id}/status (${STORES} stores)`,
          { url: `${app.url}/v1/releases/${releaseId}/status`, headers: auth },
        ],
        [
          'status, GraphQL as text (the same each time)',
          { url: `${app.url}/graphql`, method: 'POST', headers: json, body: graphqlBody },
        ],
        [
          'status, GraphQL persisted (POST documentId)',
          { url: `${app.url}/graphql`, method: 'POST', headers: json, body: persistedBody },
        ],
        ['status, GraphQL persisted (GET documentId)', { url: persistedGet, headers: auth }],
        [
          'status, GraphQL a different text each time',
          {
            url: `${app.url}/graphql`,
            method: 'POST',
            headers: json,
            body: graphqlBody,
            setupRequest: newDocument as never,
          },
        ],
        [
          'status, tools/call get_release_status',
          { url: `${app.url}/api/mcp`, method: 'POST', headers: json, body: toolBody },
        ],
        [
          'bare express, POST of a small JSON body',
          { url: `${bare.url}/v1/me`, method: 'POST', headers: json, body: persistedBody },
        ],
        ['bare express, GET answering the REST status bytes', { url: `${bare.url}/answer`, headers: auth }],
        [
          'bare express, tools/call POST answering the agent bytes',
          { url: `${bare.url}/answer`, method: 'POST', headers: json, body: toolBody },
        ],
      ] as [string, Target][]
    ).map(([label, target]) => ({
      label,
      run: (seconds: number) =>
        measureHttp(
          label,
          { ...target, serverPid: (target.url.startsWith(bare.url) ? bare : app).process.pid },
          seconds,
          connections,
        ),
    }));

  await measureHttp('warm-up', { url: `${app.url}/v1/releases/${releaseId}/status`, headers: auth }, 2, 10);
  for (const connections of PARTS.includes('http') ? CONNECTIONS : []) {
    const chosen = scenarios(connections).filter((scenario) => !ONLY || scenario.label.includes(ONLY));
    // Rounds in turn (A B C … A B C …): a neighbour's load or the machine's drift falls on every row alike.
    const rounds = chosen.map((): Measurement[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, scenario] of chosen.entries()) rounds[i]!.push(await scenario.run(SECONDS / ROUNDS));
    }
    const rows = rounds.map(medianRound);
    console.log(
      `\n-- ${connections} connection(s), ${SECONDS}s each in ${ROUNDS} rounds (the median round shown) --`,
    );
    printTable(rows);
    if (ONLY) continue;
    const [
      floor,
      status,
      me,
      rest,
      graphqlHttp,
      persistedPost,
      persistedGet,
      newDocuments,
      tool,
      floorPost,
      floorRestBytes,
      floorAgentBytes,
    ] = rounds as [
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
      Measurement[],
    ];
    // Each ratio pairs two rows of the same round (measured seconds apart) and is the median of the
    // rounds' ratios: a round the machine slowed falls on both rows of its pair, not on one.
    const throughput = (row: Measurement[], base: Measurement[]) =>
      median(row.map((m, i) => m.requestsPerSecond / base[i]!.requestsPerSecond));
    // CPU per request moves less with other work on the machine than throughput: the base's server CPU
    // per request over the row's.
    const cpu = (row: Measurement[], base: Measurement[]) =>
      median(row.map((m, i) => (base[i]!.serverCpuMicros ?? Number.NaN) / (m.serverCpuMicros ?? Number.NaN)));
    const show = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(3));
    const eachRound = (row: Measurement[], base: Measurement[]) =>
      ROUNDS > 1
        ? ` (rounds ${row.map((m, i) => (m.requestsPerSecond / base[i]!.requestsPerSecond).toFixed(2)).join(' / ')})`
        : '';
    const ratio = (row: Measurement[]) => show(throughput(row, floor));
    console.log("ratios to bare express (throughput, the median of the rounds' own ratios):");
    console.log(`  /v1/status ${ratio(status)} (target ≥ 0.60)   /v1/me ${ratio(me)} (target ≥ 0.30)`);
    console.log(
      `  release status: REST ${ratio(rest)}${eachRound(rest, floor)}, GraphQL ${ratio(graphqlHttp)}, agent tool ${ratio(tool)} ` +
        `(target ≥ ${connections === 1 ? '0.50, p99 ≤ 2 ms' : '0.40'}); REST p99 ${medianRound(rest).p99.toFixed(2)} ms`,
    );
    const ofRest = (row: Measurement[]) => `${show(throughput(row, rest))}${eachRound(row, rest)}`;
    console.log(
      `ratios to the REST status (throughput): GraphQL persisted POST ${ofRest(persistedPost)}, GET ` +
        `${ofRest(persistedGet)} (target ≥ 0.90; p99 ${medianRound(persistedPost).p99.toFixed(2)} / ` +
        `${medianRound(persistedGet).p99.toFixed(2)} ms), GraphQL as text ${show(throughput(graphqlHttp, rest))} ` +
        `(target ≥ 0.60), a different text each time ${show(throughput(newDocuments, rest))}, ` +
        `agent tool ${ofRest(tool)} (target ≥ 0.85)`,
    );
    const cpuOfRest = (row: Measurement[]) => show(cpu(row, rest));
    console.log(
      `by server CPU per request, REST's ÷ the row's: GraphQL persisted POST ${cpuOfRest(persistedPost)}, GET ` +
        `${cpuOfRest(persistedGet)}, as text ${cpuOfRest(graphqlHttp)}, a different text each time ` +
        `${cpuOfRest(newDocuments)}, agent tool ${cpuOfRest(tool)}; bare express's ÷ REST's ${show(cpu(rest, floor))}`,
    );
    console.log(
      `a body's own cost: bare express POST ÷ GET ${show(throughput(floorPost, floor))} (throughput), ` +
        `${show(cpu(floorPost, floor))} (server CPU)`,
    );
    // HTTP's own share of the agent's gap: the same request and answer bytes on bare express.
    console.log(
      `the agent's bytes on bare express: tools/call POST ÷ REST status GET ${show(throughput(floorAgentBytes, floorRestBytes))} ` +
        `(throughput; the service's agent ÷ REST ${show(throughput(tool, rest))}), ${show(cpu(floorAgentBytes, floorRestBytes))} (server CPU)`,
    );
  }

  if (PARTS.includes('in-process')) {
    const rows = await measureInterleaved(inProcessCalls, SECONDS);
    console.log(`\n-- the same status call in-process, ${SECONDS}s each, median of 7 interleaved rounds --`);
    printTable(rows);
    const [core, restFacade, agentFacade, textEscape] = rows as [
      Measurement,
      Measurement,
      Measurement,
      Measurement,
    ];
    const apart = (m: Measurement) =>
      `${((1 - m.requestsPerSecond / core.requestsPerSecond) * 100).toFixed(1)}%`;
    console.log(
      `facade cost over the GraphQL core: REST ${apart(restFacade)}, agent tool ${apart(agentFacade)} (target ≤ 10%)`,
    );
    const micros = (m: Measurement) => 1e6 / m.requestsPerSecond;
    console.log(
      `per call: core ${micros(core).toFixed(1)} µs, agent ${micros(agentFacade).toFixed(1)} µs; of the agent's ` +
        `${(micros(agentFacade) - micros(core)).toFixed(1)} µs more, the ${answerText.length}-character answer ` +
        `text's copy in content[0].text (required by the interface) takes ${micros(textEscape).toFixed(1)} µs ` +
        `(${((micros(textEscape) / micros(core)) * 100).toFixed(0)}% of the core call)`,
    );
  }
} finally {
  for (const close of closing) await close();
  await bare.stop();
  await bench.close();
}
