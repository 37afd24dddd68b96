import type { NextFunction, Request, Response } from 'express';
import type { Channel, Principal } from '../../schema/context.ts';
import { errorExtensions } from '../../schema/errors.ts';
import { type PreparedOperation, prepareOperation, runOperation } from '../../schema/execute.ts';
import type { AppServices } from '../../schema/services.ts';
import { envelopeFrom, sendError } from '../rest/errors.ts';
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
  };
}

export type FileOperations = ReturnType<typeof fileOperations>;

/** Marks the surface a file router serves; {@link runOrAnswer} runs its operations on that channel. */
export function onChannel(channel: Channel) {
  return (_req: Request, res: Response, next: NextFunction) => {
    res.locals.channel = channel;
    next();
  };
}

/** Runs an operation; on error answers the envelope and returns null. */
export async function runOrAnswer(
  app: AppServices,
  res: Response,
  operation: PreparedOperation,
  principal: Principal | null,
  variables: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const result = await runOperation(app, operation, {
    principal,
    channel: (res.locals.channel as Channel | undefined) ?? 'rest',
    variables,
    requestId: String(res.locals.requestId ?? ''),
  });
  const [error] = result.errors;
  if (error) {
    sendError(res, envelopeFrom(error.message, errorExtensions(error)));
    return null;
  }
  return result.data ?? {};
}
