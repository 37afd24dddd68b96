import { z } from 'zod';
import { CREATED_UPLOAD_SESSION_FIELDS, FILE_FIELDS } from '../../selections.ts';
import { defineTool, type ToolAnnotations, type ToolRow } from '../tool.ts';

const CREATES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
const uploadType = z
  .enum(['coverArt', 'audio'])
  .describe('`coverArt` (stored as a 3000x3000 PNG) or `audio` (stored as FLAC).');
const fileName = z.string().min(1).max(255);

/** Argument names as on the REST file and upload endpoints, as the spec says for these tools. */
export const fileTools: ToolRow[] = [
  defineTool({
    name: 'upload_file',
    title: 'Upload a small file (base64)',
    description:
      'Upload cover art or audio as base64 (about 3 MB of binary at most; for larger files use ' +
      'prepare_local_file_upload or upload_file_from_url). The content is sniffed: an image for coverArt, ' +
      'audio for audio. Returns the file metadata with its fileUrl.',
    annotations: CREATES,
    args: z.object({
      type: uploadType,
      file_name: fileName,
      data_base64: z.string().min(1).describe('Raw base64 or a data: URL.'),
      mime_type: z.string().max(200).optional().describe('Informative only: the bytes decide.'),
    }),
    document: `mutation AgentUploadFile($type: UploadType!, $fileName: String!, $dataBase64: String!, $mimeType: String) {
      file: uploadFile(type: $type, fileName: $fileName, dataBase64: $dataBase64, mimeType: $mimeType) { ${FILE_FIELDS} } }`,
    variables: (a) => ({
      type: a.type,
      fileName: a.file_name,
      dataBase64: a.data_base64,
      mimeType: a.mime_type,
    }),
    select: 'file',
    aliases: ['upload', 'upload_base64'],
  }),
  defineTool({
    name: 'upload_file_from_url',
    title: 'Import a file from a URL',
    description:
      'Import cover art or audio from a public http(s) URL; the server streams it (no size limit). Private ' +
      'and internal addresses are refused. Returns the file metadata with its fileUrl.',
    annotations: { ...CREATES, openWorldHint: true },
    args: z.object({ type: uploadType, url: z.string().min(1).max(4096), file_name: fileName.optional() }),
    document: `mutation AgentImportFile($type: UploadType!, $url: String!, $fileName: String) {
      file: importFileFromUrl(type: $type, url: $url, fileName: $fileName) { ${FILE_FIELDS} } }`,
    variables: (a) => ({ type: a.type, url: a.url, fileName: a.file_name }),
    select: 'file',
    aliases: ['import_file_from_url', 'upload_from_url'],
  }),
  defineTool({
    name: 'prepare_local_file_upload',
    title: 'Open a chunked upload session',
    description:
      'For files too large for upload_file: returns session_id, a scoped upload_token (send it in the header ' +
      'named upload_header_name), chunk_endpoint and complete_endpoint. POST chunks (any order, retries ' +
      'are harmless) as raw bytes with x-session-id/x-chunk-index, multipart, or JSON chunkBase64; then POST ' +
      '{sessionId, fileName, fileType, type} to complete_endpoint.',
    annotations: CREATES,
    args: z.object({
      type: uploadType,
      file_name: fileName,
      file_size: z.int().positive().describe('Total bytes of the file.'),
      file_type: z.string().max(200).optional().describe('MIME type, informative.'),
    }),
    document: `mutation AgentCreateUploadSession($type: UploadType!, $fileName: String!, $fileSize: Float!, $fileType: String) {
      session: createUploadSession(type: $type, fileName: $fileName, fileSize: $fileSize, fileType: $fileType) { ${CREATED_UPLOAD_SESSION_FIELDS} } }`,
    variables: (a) => ({ type: a.type, fileName: a.file_name, fileSize: a.file_size, fileType: a.file_type }),
    select: 'session',
    aliases: ['create_upload_session', 'prepare_upload'],
  }),
];
