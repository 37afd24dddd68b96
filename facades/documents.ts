import { DRAFT_RESULT_FIELDS, SUBMIT_RESULT_FIELDS } from './selections.ts';

/**
 * Operations that several facade rows run with the same variables (REST, the agent HTTP endpoints and
 * the agent tools), so each is written once. Rows only map their own field names onto the variables.
 */
export function saveDraftDocument(operationName: string): string {
  return `mutation ${operationName}($release: JSON, $tracks: JSON, $trackPatches: JSON, $uploadRequests: JSON,
    $status: String, $mode: DraftMode, $releaseId: ID, $conversationId: String, $ifMatch: Int) {
    draft: saveDraftWire(release: $release, tracks: $tracks, trackPatches: $trackPatches, uploadRequests: $uploadRequests,
      status: $status, mode: $mode, releaseId: $releaseId, conversationId: $conversationId, ifMatch: $ifMatch) {
      ${DRAFT_RESULT_FIELDS} } }`;
}

export function submitDocument(operationName: string): string {
  return `mutation ${operationName}($release: JSON!, $tracks: JSON!, $releaseId: ID, $conversationId: String,
    $tokenOffset: Boolean, $distributors: JSON, $skipAdapters: Boolean, $idempotencyKey: String, $provenance: String) {
    submission: submitReleaseWire(release: $release, tracks: $tracks, releaseId: $releaseId, conversationId: $conversationId,
      tokenOffset: $tokenOffset, distributors: $distributors, skipAdapters: $skipAdapters,
      idempotencyKey: $idempotencyKey, provenance: $provenance) { ${SUBMIT_RESULT_FIELDS} } }`;
}
