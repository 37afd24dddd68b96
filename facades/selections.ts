/**
 * GraphQL selections shared by the facades' documents, so a REST route and its agent tool return the
 * same documented shape from one definition. Aliases give the spec's field names.
 */
export const PROFILE_FIELDS = /* GraphQL */ `
  id email first_name: firstName last_name: lastName created_at: createdAt avatar_url: avatarUrl
  is_insider: isInsider is_patron: isPatron is_admin: isAdmin
`;

export const CREDITS_FIELDS = /* GraphQL */ `
  balance updatedAt
  transactions { id type amount balance_after: balanceAfter created_at: createdAt ref }
  aggregates { usedTotal purchasedTotal }
`;

/** The caller's rate limits (GET /v1/rate-limits, get_rate_limits), in snake_case. */
export const RATE_LIMIT_FIELDS = /* GraphQL */ `
  name action keyed_by: keyedBy applies_to: appliesTo quota window_seconds: windowSeconds remaining
  reset_seconds: resetSeconds resets_at: resetsAt
`;

export const PRICING_FIELDS = /* GraphQL */ `
  currency
  perCredit { usd cents }
  perSong { human ai aiSurcharge }
  tokenOffset { credits costUsd optional }
  bundles { packageId credits priceUsd perCreditUsd discountPercent savingsUsd tag }
  autoReload { available requiresSavedCard mcp { read configure } }
  creditsNeverExpire
`;

export const STORE_CATALOG_FIELDS = /* GraphQL */ `
  stores { storeId name featured enabledByDefault aliases }
  defaultStoreIds
  selectionSemantics {
    field omitted null emptyArray array aliases unknownEntries defaultStoreIds partnerApproval ugcPolicies
  }
`;

export const FILE_FIELDS = /* GraphQL */ `
  fileUrl fileName type size contentType sha256 sourceSha256 sourceSize width height durationSeconds
  sampleRate bitDepth channels codec warnings { code message } createdAt
`;

/** The spec's cover art result; `imageBase64` only when asked (the document's `$returnBase64`). */
export const COVER_ART_FIELDS = /* GraphQL */ `
  fileUrl bucket key fileName prompt model modelVariant imageSize aspectRatio edited rateLimit { remaining }
  imageBase64 @include(if: $returnBase64)
`;

export const CREATED_UPLOAD_SESSION_FIELDS = /* GraphQL */ `
  session_id: sessionId upload_token: uploadToken upload_header_name: uploadHeaderName
  chunk_endpoint: chunkEndpoint complete_endpoint: completeEndpoint status_endpoint: statusEndpoint
  recommended_chunk_bytes: recommendedChunkBytes max_chunk_bytes: maxChunkBytes file_size: fileSize
  expires_at: expiresAt
`;

export const RULE_ISSUE_FIELDS = /* GraphQL */ `rule severity path message suggestion`;

export const DRAFT_RESULT_FIELDS = /* GraphQL */ `
  releaseId releaseCreated
  snapshot { revision snapshotId status }
  latest { payload: payloadWire tracks: tracksWire uploadRequests }
  submittable
  submissionWarnings { ${RULE_ISSUE_FIELDS} }
`;

export const QUOTE_FIELDS = /* GraphQL */ `
  currency
  cost { trackCredits tokenOffsetCredits totalCredits totalUsd }
  tracks { trackNumber title billable ai credits reason }
  summary { trackCount billableTracks humanTracks aiTracks tracksMissingAudio }
  balance { available required covered shortfallCredits shortfallUsd }
  purchase { packageId credits priceUsd perCreditUsd discountPercent savingsUsd tag
    checkout { method path body { package_id } agentTool agentArguments { packageId } } }
  submittable
  blockers { ${RULE_ISSUE_FIELDS} }
  warnings { ${RULE_ISSUE_FIELDS} }
  rates { creditsPerHumanTrack creditsPerAiTrack aiSurchargeCredits tokenOffsetCredits }
`;

export const SUBMIT_RESULT_FIELDS = /* GraphQL */ `
  releaseId status aggregateStatus pending alreadySubmitted creditsCharged balanceAfter submittedAt provenance
  tokenOffset charges { trackNumber title billable ai credits reason } warnings { ${RULE_ISSUE_FIELDS} }
`;

export const RELEASE_SUMMARY_FIELDS = /* GraphQL */ `
  id title primary_artist_name: primaryArtistName status aggregate_status: aggregateStatus revision
  credits_spent: creditsSpent provenance sandbox_sample: sandboxSample created_at: createdAt updated_at: updatedAt
  submitted_at: submittedAt
`;

export const RELEASE_DETAIL_FIELDS = /* GraphQL */ `
  ${RELEASE_SUMMARY_FIELDS}
  conversation_id: conversationId draft_status: draftStatus token_offset: tokenOffset upc
  distribution_store_ids: distributionStoreIds
  release: releaseMetadataWire
  tracks: trackMetadataWire
`;

export const RELEASE_STATUS_FIELDS = /* GraphQL */ `
  releaseId aggregateStatus pending stores { storeId storeName statusText urlInStore } fallback fallbackReason
`;

export const RELEASE_JOB_FIELDS = /* GraphQL */ `
  jobId releaseId state steps { name status at detail storeId } errors { at code message storeId } createdAt updatedAt
`;

/** POST /releases/{id}/distribute (REST): `skippedStoreIds` keeps the spec's spelling. */
export const REST_DISTRIBUTE_FIELDS = /* GraphQL */ `
  release_id: releaseId queued_store_ids: queuedStoreIds skippedStoreIds { storeId storeName reason } note
`;

/** POST /releases/{id}/takedown (REST); `skippedStoreIds` as in the distribute response. */
export const REST_TAKEDOWN_FIELDS = /* GraphQL */ `
  release_id: releaseId requested_store_ids: requestedStoreIds
  skippedStoreIds { storeId storeName reason } note
`;

export const REST_DISTRIBUTION_STORES_FIELDS = /* GraphQL */ `
  ok release_id: releaseId distribution_store_ids: distributionStoreIds note
`;

export const REST_UGC_POLICIES_FIELDS = /* GraphQL */ `
  release_id: releaseId
  policies { store_id: storeId store_name: storeName aliases policy is_default: isDefault
    selectable { code label description } default_code: defaultCode }
`;

/** Agent tools: the camelCase result shapes. */
export const DISTRIBUTE_FIELDS = /* GraphQL */ `
  releaseId queuedStoreIds skippedStoreIds { storeId storeName reason } note
`;

export const TAKEDOWN_FIELDS = /* GraphQL */ `
  releaseId requestedStoreIds skippedStoreIds { storeId storeName reason } note
`;

export const DISTRIBUTION_STORES_FIELDS = /* GraphQL */ `ok releaseId distributionStoreIds note`;

export const UGC_POLICIES_FIELDS = /* GraphQL */ `
  releaseId
  policies { storeId storeName aliases policy isDefault selectable { code label description } defaultCode }
`;

export const WEBHOOK_ENDPOINT_FIELDS = /* GraphQL */ `
  id url description event_types: eventTypes active failure_count: failureCount secret_prefix: secretPrefix
  created_at: createdAt updated_at: updatedAt disabled_at: disabledAt
  previous_secret_expires_at: previousSecretExpiresAt
`;

/** A test event the sandbox made on request (`payload` as an object, `test: true` in it). */
export const SANDBOX_EVENT_FIELDS = /* GraphQL */ `
  event_id: eventId type release_id: releaseId sample_release: sampleRelease payload: payloadWire
  occurred_at: occurredAt remaining
`;

export const WEBHOOK_DELIVERY_FIELDS = /* GraphQL */ `
  id endpoint_id: endpointId event_id: eventId event_type: eventType release_id: releaseId status attempts
  response_status: responseStatus latency_ms: latencyMs last_error: lastError next_attempt_at: nextAttemptAt
  created_at: createdAt delivered_at: deliveredAt
`;

const PERFORMANCE_KPIS = 'kpis { totalStreams avgDailyStreams periodChangePct topStore { name share } }';
const DAILY_METRICS = 'metrics { eventDate streamsCount }';

/** The spec's performance summary (agent tool get_performance_summary). */
export const PERFORMANCE_SUMMARY_FIELDS = /* GraphQL */ `
  fromDate toDate releases { total withDistributorId } ${DAILY_METRICS} ${PERFORMANCE_KPIS}
  topStores { id name total }
  topReleases { releaseId title primaryArtistName coverArtFileUrl streamsCount }
`;

/** The spec's release performance (agent tool get_release_performance). */
export const RELEASE_PERFORMANCE_FIELDS = /* GraphQL */ `
  releaseId fromDate toDate distributorId ${DAILY_METRICS} ${PERFORMANCE_KPIS}
  distributors { id name total }
  tracks { trackId trackName artistName streamsCount }
  source
`;

/**
 * What the REST analytics routes and the agent tools add to the spec's answers, in the answers' own
 * camelCase: a daily series per store and the top countries. The document declares `$storeSeriesLimit` and
 * `$topCountriesLimit` (omitted, the fields' defaults).
 */
export const STREAM_BREAKDOWN_FIELDS = /* GraphQL */ `
  storeSeries(limit: $storeSeriesLimit) { storeId storeName total days { eventDate streamsCount } }
  topCountries(limit: $topCountriesLimit) { country name total }
`;

/** What the REST analytics routes add for dashboards: how current the figures are. */
export const STREAMS_FRESHNESS_FIELDS = 'freshness { ingestedThrough ingestedAt }';

/** The spec's fraud score (POST /fraud/score). */
export const FRAUD_SCORE_FIELDS = /* GraphQL */ `
  email score maxScore severity computedAt flags { code label category severity triggered points }
`;

export const CHECKOUT_FIELDS = /* GraphQL */ `
  ... on HostedCreditCheckout { uiMode url sessionId publishableKey amount currency credits expiresAt packageId }
  ... on EmbeddedCreditCheckout { clientSecret publishableKey uiMode packageId }
`;

export const AUTO_RELOAD_FIELDS = /* GraphQL */ `
  enabled configured thresholdCredits packageId reloadCredits reloadAmountCents
  card { brand last4 expMonth expYear } lastStatus lastReason lastTriggeredAt
`;

export const AI_DETECTION_FIELDS = /* GraphQL */ `
  status containsAi aiScore predictedModel predictedModelScore provider model message cached
`;

export const ACR_FIELDS = /* GraphQL */ `
  status matched
  bestMatch { title artist isrc albumName label queryMatchPercentage confidence dspLinks { name url } ownRelease releaseId }
  provider model message cached
`;

/** The partner sign-in arguments shared by account creation and authorization (REST and agent). */
export const PARTNER_CLIENT_PARAMETERS = /* GraphQL */ `$email: String!, $password: String!, $clientId: ID!,
  $redirectUri: String!, $codeChallenge: String, $codeChallengeMethod: String, $scope: String, $provenance: String`;
export const PARTNER_CLIENT_ARGUMENTS = /* GraphQL */ `email: $email, password: $password, clientId: $clientId,
  redirectUri: $redirectUri, codeChallenge: $codeChallenge, codeChallengeMethod: $codeChallengeMethod,
  scope: $scope, provenance: $provenance`;

/** The partner answer in the spec's names (userId, email, authorization_code) and the rest snake_case. */
export const PARTNER_AUTHORIZATION_FIELDS =
  'userId email authorization_code: authorizationCode expires_in: expiresIn redirect_uri: redirectUri scope provenance';

export const ISSUED_TOKEN_FIELDS =
  'access_token: accessToken token_type: tokenType scope expires_at: expiresAt';
