import { CREDITS_PER_AI_TRACK, CREDITS_PER_HUMAN_TRACK, TOKEN_OFFSET_CREDITS } from '../credits/index.ts';

/** Served as `mcp://docs/agent-guide` and GET /api/mcp/docs. */
export const AGENT_GUIDE_MARKDOWN = `# Tributary agent guide

Tributary distributes music to digital stores. This guide is for AI agents that use the JSON-RPC tools.

## Connect

- Endpoint: \`POST {app_url}/api/mcp\`, JSON-RPC 2.0. Call a tool with method \`tools/call\`, \
\`params.name\` and \`params.arguments\`; the result is a JSON string in \`result.content[0].text\`. \
Batches are supported.
- Discover tools with \`tools/list\` and resources with \`resources/list\`; both lists are static for \
a session, and later releases may add tools, so rely on the list rather than on memory. Unknown tool \
names return an error with suggestions; common aliases (e.g. \`release_status\`) resolve to the \
canonical tool.
- **Read \`mcp://docs/metadata-rules-hitlist\` first, right after connecting.** Then \
\`mcp://schemas/release-required\` (required fields and a complete example payload); the full rules are \
in \`get_metadata_rules\`.

## Authenticate

Every call needs a token with scope \`svc:mcp\`:

- a personal access token (\`svc_pat_…\`) created by the account holder, sent as \
\`Authorization: Bearer <access_token>\`;
- or an OAuth 2.1 token: an unauthenticated call gets a 401 challenge; follow the discovery documents \
under \`/.well-known/\`, register dynamically and use the authorization code flow with PKCE (S256);
- or an \`access_token\` argument on the tool call (\`auth_login\` returns one).

A missing, invalid, expired or revoked token fails with 401. Never print tokens back to the user.

## Flow

1. **Upload files.** \`upload_file\` (base64, about 3 MB), \`upload_file_from_url\` (public URL, no size \
limit) or \`prepare_local_file_upload\` (chunked upload; chunk requests carry the upload token in \
header \`x-mcp-upload-token\`). Each returns a \`fileUrl\`: \`/api/files/cover-art/<user_id>/<name>\` or \
\`/api/files/audio/<user_id>/<name>\`. Optional: \`generate_cover_art\`, \`detect_audio_ai\` (the \
classifier that decides AI billing), \`detect_audio_pex_search_acr\` (rights check, no billing effect).
2. **Save a draft.** \`POST /api/mcp/draft\` with the camelCase draft body (\`releaseId\`, \
\`conversationId\`, \`trackPatches\`, \`uploadRequests\`, \`mode\` \`delta\` or \`replace\`). Fix what \
\`submissionWarnings\` reports and check \`submittable\`.
3. **Pick stores.** \`get_distribution_stores\` lists store ids and aliases. \`distribution_store_ids\`: \
a non-empty list selects stores, \`null\` selects all supported stores, an empty list is rejected.
4. **Quote.** \`quote_release\` (\`tracks\`, \`tokenOffset\`) creates and charges nothing. Read \
\`balance.covered\` and \`blockers\`; on a shortfall \`purchase.packageId\` names the cheapest bundle \
and \`purchase.checkout.agentArguments\` are the arguments for \`create_credit_checkout_session\`.
5. **Submit.** \`submit_release\` with the SubmitReleaseRequest (\`releaseId\`, \`conversationId\`, \
\`tokenOffset\` in camelCase). Submission debits credits; confirm with the user first.
6. **Follow up.** \`get_release_status\` (per-store status and \`aggregateStatus\`; \`queued\` with \
\`pending: true\` until the distributor has the release), \`get_release_job\`, \`get_release_metadata\`, \
\`list_releases\`.

## Billing

1 credit = 1 USD. Submission debits ${CREDITS_PER_HUMAN_TRACK} credit per human song and \
${CREDITS_PER_AI_TRACK} credits per AI song; the optional \`tokenOffset\` adds ${TOKEN_OFFSET_CREDITS} \
credit per release. Sending \`contains_ai\`, \`containsAi\` or \`ai_generation_credits\` marks a track as \
AI, and when the detector finds AI in a track declared human, billing follows the detector. Credits \
never expire. \`get_pricing\` and \`get_credits\` show rates, bundles and the balance. To buy credits, \
\`create_credit_checkout_session\` with \`uiMode: "hosted"\` returns a \`url\` for the user to pay at; the \
credits arrive once the payment is confirmed. With a card saved at checkout (\`savePaymentMethod: true\`), \
\`set_autoreload\` tops the balance up when a submission leaves it at or below \`thresholdCredits\` \
(at most 3 reloads a day).

## Errors

Errors are JSON-RPC errors inside an HTTP 200 body: \`error.code\`, \`error.message\` and \`error.data\` \
(\`retryAfterSeconds\`, or \`code\` for typed partner errors).

| error.code | Meaning | What to do |
|---|---|---|
| -32602 | invalid params | fix the arguments against the tool's input schema |
| 400 | bad input (e.g. prompt missing or too long) | fix the input |
| 401 | token missing or invalid | authenticate again |
| 403 | not allowed (e.g. a file or release of another account) | use the caller's own files and releases |
| 429 | rate limit exceeded | wait \`error.data.retryAfterSeconds\`, then retry |
| 502 | upstream failure | retry with backoff (same prompt for cover art) |
| 503 | feature not configured on this environment | do not retry |

Metadata rule violations name the offending field paths (e.g. \`tracks[0].writers[1].name\`); fix \
those fields and resubmit. Limits worth knowing: submissions 3 per 5 minutes (10 for insiders), cover \
art 5 per 2 minutes (15 for insiders).

## Tool annotations

\`tools/list\` carries MCP annotations. \`readOnlyHint: true\` marks tools that change nothing (reads, \
\`quote_release\`); they are safe to call freely. \`destructiveHint: true\` marks tools whose effect \
cannot be undone or that spend credits (such as \`submit_release\`); ask the user before calling them.
`;
