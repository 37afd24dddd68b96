import { prepareOperation } from '../../schema/execute.ts';
import { FILE_FIELDS } from '../selections.ts';

const PROGRESS_FIELDS = `sessionId status fileSize receivedBytes receivedChunks { index size } expiresAt`;

/** The GraphQL operations behind the byte-stream endpoints, parsed and validated once. */
export function fileOperations() {
  return {
    session: prepareOperation(
      `query UploadSession($sessionId: ID!) { uploadSession(sessionId: $sessionId) { ${PROGRESS_FIELDS} } }`,
    ),
    recordChunk: prepareOperation(
      `mutation RecordChunk($sessionId: ID!, $chunkIndex: Int!) {
        recordUploadChunk(sessionId: $sessionId, chunkIndex: $chunkIndex) { ${PROGRESS_FIELDS} } }`,
    ),
    complete: prepareOperation(
      `mutation CompleteUpload($sessionId: ID!, $fileName: String, $fileType: String, $type: UploadType) {
        completeUpload(sessionId: $sessionId, fileName: $fileName, fileType: $fileType, type: $type) { ${FILE_FIELDS} } }`,
    ),
    storeIncoming: prepareOperation(
      `mutation StoreIncoming($incomingId: ID!, $type: UploadType!, $fileName: String!) {
        storeIncomingFile(incomingId: $incomingId, type: $type, fileName: $fileName) { userId ${FILE_FIELDS} } }`,
    ),
    download: prepareOperation(
      `query FileDownload($fileUrl: String!) { fileDownload(fileUrl: $fileUrl) { url expiresAt } }`,
    ),
    thumbnail: prepareOperation(
      `query CoverThumbnail($ownerId: String!, $name: String!, $size: String!, $expires: String!, $sig: String!) {
        thumbnail: coverThumbnailWire(ownerId: $ownerId, name: $name, size: $size, expires: $expires, sig: $sig) {
          storageKey contentType size } }`,
    ),
  };
}

export type FileOperations = ReturnType<typeof fileOperations>;
