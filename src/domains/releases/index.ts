export {
  AGENT_SUBMIT_LIMIT,
  agentSubmitRule,
  consumeAgentSubmitAllowance,
} from './agent-submit-allowance.ts';
export { type ArtistProfile, artistProfilesOf } from './artist-profiles.ts';
export { assignIsrc, assignUpc } from './assigned-identifiers.ts';
export { CHARGE_REASONS, type TrackCharge } from './billing.ts';
export { detectAudioAi } from './detect-track-ai.ts';
export { assertReleaseId, findOwnedRelease, releaseNotFound, releaseNotOwned } from './find-release.ts';
export { pageOfReleases } from './page-releases.ts';
export { PAYLOAD_LIMITS, type PayloadPart, payloadLimitsText, payloadProblems } from './payload-limits.ts';
export { type Quote, type QuoteInput, quoteRelease } from './quote-release.ts';
export {
  DEFAULT_LIST_LIMIT,
  getReleaseMetadata,
  listReleases,
  MAX_LIST_LIMIT,
  mergedMetadata,
} from './read-releases.ts';
export { AGGREGATE_STATUSES, type AggregateStatus, RELEASE_STATUSES, Release } from './release.entity.ts';
export { ReleaseArtist } from './release-artist.entity.ts';
export { primaryArtistsOf } from './release-artists.ts';
export { releaseSchema } from './release-schema.ts';
export { SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH } from './release-search.ts';
export { ReleaseTrack } from './release-track.entity.ts';
export { TRACK_TYPES } from './rules/engine/rules-credits.ts';
export type { ReleaseInput, RuleIssue } from './rules/engine/types.ts';
export {
  metadataRulesVersion,
  renderHitlistMarkdown,
  renderMetadataRulesMarkdown,
} from './rules/render-rules.ts';
export { RULE_SEVERITIES, RULE_TOPICS, RULES, type RuleDescriptor } from './rules/rule-catalog.ts';
export { DRAFT_MODES, type DraftInput, type DraftResult, saveDraft } from './save-draft.ts';
export { type SubmitInput, type SubmitResult, submitRelease } from './submit-release.ts';
