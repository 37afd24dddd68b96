import { ACR_FIELDS, AI_DETECTION_FIELDS } from '../../selections.ts';
import { bodyField, type RestRoute } from '../route.ts';

const analysisVariables = {
  fileUrl: bodyField('file_url'),
  fileName: bodyField('file_name'),
  releaseId: bodyField('release_id'),
  conversationId: bodyField('conversation_id'),
  trackIndex: bodyField('track_index'),
};

export const audioRoutes: RestRoute[] = [
  {
    operationId: 'detectAudioAi',
    method: 'POST',
    path: '/audio/ai-detection',
    summary: 'Detect AI-generated audio (the classifier billing uses); track_index marks the draft track',
    tag: 'Files and uploads',
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation DetectAudioAi($fileUrl: String!, $fileName: String, $releaseId: ID, $conversationId: String, $trackIndex: Int) {
        result: detectAudioAi(fileUrl: $fileUrl, fileName: $fileName, releaseId: $releaseId, conversationId: $conversationId, trackIndex: $trackIndex) { ${AI_DETECTION_FIELDS} }
      }
    `,
    variables: analysisVariables,
    select: 'result',
  },
  {
    operationId: 'acrCheck',
    method: 'POST',
    path: '/audio/acr-check',
    summary: 'Match audio against the registry of recordings (optional; no billing effect)',
    tag: 'Files and uploads',
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation AcrCheck($fileUrl: String!, $fileName: String, $releaseId: ID, $conversationId: String, $trackIndex: Int) {
        result: acrCheck(fileUrl: $fileUrl, fileName: $fileName, releaseId: $releaseId, conversationId: $conversationId, trackIndex: $trackIndex) { ${ACR_FIELDS} }
      }
    `,
    variables: analysisVariables,
    select: 'result',
  },
];
