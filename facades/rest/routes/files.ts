import { CREATED_UPLOAD_SESSION_FIELDS, FILE_FIELDS } from '../../selections.ts';
import { bodyField, integer, pathParam, type RestRoute } from '../route.ts';

const SESSION_PROGRESS = /* GraphQL */ `
  session_id: sessionId type status file_name: fileName file_size: fileSize received_bytes: receivedBytes
  received_chunks: receivedChunks { index size } expires_at: expiresAt file { ${FILE_FIELDS} }
`;

export const fileRoutes: RestRoute[] = [
  {
    operationId: 'uploadFile',
    method: 'POST',
    path: '/files',
    summary: 'Upload a small file as base64 (about 3 MB of binary at most); content is sniffed',
    tag: 'Files and uploads',
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation UploadFile($type: UploadType!, $fileName: String!, $dataBase64: String!, $mimeType: String) {
        file: uploadFile(type: $type, fileName: $fileName, dataBase64: $dataBase64, mimeType: $mimeType) { ${FILE_FIELDS} }
      }
    `,
    variables: {
      type: bodyField('type'),
      fileName: bodyField('file_name'),
      dataBase64: bodyField('data_base64'),
      mimeType: bodyField('mime_type'),
    },
    select: 'file',
    status: 201,
  },
  {
    operationId: 'importFileFromUrl',
    method: 'POST',
    path: '/files/from-url',
    summary: 'Import a file from a public http(s) URL, streamed server-side (no size limit)',
    tag: 'Files and uploads',
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation ImportFileFromUrl($type: UploadType!, $url: String!, $fileName: String) {
        file: importFileFromUrl(type: $type, url: $url, fileName: $fileName) { ${FILE_FIELDS} }
      }
    `,
    variables: { type: bodyField('type'), url: bodyField('url'), fileName: bodyField('file_name') },
    select: 'file',
    status: 201,
  },
  {
    operationId: 'createUploadSession',
    method: 'POST',
    path: '/uploads',
    summary: 'Open a chunked upload session (chunks in any order, resumable)',
    tag: 'Files and uploads',
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation CreateUploadSession($type: UploadType!, $fileName: String!, $fileSize: Float!, $fileType: String) {
        session: createUploadSession(type: $type, fileName: $fileName, fileSize: $fileSize, fileType: $fileType) { ${CREATED_UPLOAD_SESSION_FIELDS} }
      }
    `,
    variables: {
      type: bodyField('type'),
      fileName: bodyField('file_name'),
      fileSize: bodyField('file_size', (raw, name) => (typeof raw === 'string' ? integer(raw, name) : raw)),
      fileType: bodyField('file_type'),
    },
    select: 'session',
    status: 201,
  },
  {
    operationId: 'getUploadSession',
    method: 'GET',
    path: '/uploads/:id',
    summary: 'Which chunks an upload session holds (resume by sending the missing ones)',
    tag: 'Files and uploads',
    auth: 'bearer',
    document: /* GraphQL */ `
      query GetUploadSession($sessionId: ID!) {
        session: uploadSession(sessionId: $sessionId) { ${SESSION_PROGRESS} }
      }
    `,
    variables: { sessionId: pathParam('id') },
    select: 'session',
  },
];
