import { z } from 'zod';
import { ACR_FIELDS, AI_DETECTION_FIELDS } from '../../selections.ts';
import { defineTool, type ToolAnnotations, type ToolRow } from '../tool.ts';

const ANALYSES: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const analysisArgs = z.object({
  fileUrl: z.string().min(1).max(600).describe('An audio fileUrl of yours (/api/files/audio/...).'),
  fileName: z.string().max(255).optional(),
  releaseId: z.string().max(100).optional().describe('Your release (draft) the file belongs to.'),
  conversationId: z.string().max(200).optional(),
  trackIndex: z.int().min(0).max(999).optional().describe('0-based track of the draft to update.'),
});

const analysisVariables = (a: z.infer<typeof analysisArgs>) => ({
  fileUrl: a.fileUrl,
  fileName: a.fileName,
  releaseId: a.releaseId,
  conversationId: a.conversationId,
  trackIndex: a.trackIndex,
});

/** An analysis of one audio file: the mutation `field` with the file arguments, read as `result`. */
function analysisTool(
  row: Pick<ToolRow, 'name' | 'title' | 'description' | 'aliases'> & {
    operation: string;
    field: string;
    selection: string;
  },
): ToolRow {
  const { operation, field, selection, ...rest } = row;
  return defineTool({
    ...rest,
    annotations: ANALYSES,
    args: analysisArgs,
    document: `mutation ${operation}($fileUrl: String!, $fileName: String, $releaseId: ID, $conversationId: String, $trackIndex: Int) {
      result: ${field}(fileUrl: $fileUrl, fileName: $fileName, releaseId: $releaseId, conversationId: $conversationId, trackIndex: $trackIndex) {
        ${selection} } }`,
    variables: analysisVariables,
    select: 'result',
  });
}

export const audioTools: ToolRow[] = [
  analysisTool({
    name: 'detect_audio_ai',
    title: 'Detect AI-generated audio',
    description:
      'Whether one of your audio files is AI-generated: the same classifier that decides billing (an AI ' +
      'track is billed at the AI rate of get_pricing). With trackIndex and the draft (releaseId, or ' +
      'conversationId), a detected AI track of that draft is marked AI. Cached per file.',
    operation: 'AgentDetectAudioAi',
    field: 'detectAudioAi',
    selection: AI_DETECTION_FIELDS,
  }),
  analysisTool({
    name: 'detect_audio_pex_search_acr',
    title: 'Match audio against the registry',
    description:
      'Whether one of your audio files matches a recording in the registry (releases live here and the ' +
      'reference catalogue): matched only above 10% of the fingerprint, with title, artist, ISRC, album, label ' +
      'and store links. Your own live releases are reported as your own. Optional; no billing effect.',
    operation: 'AgentAcrCheck',
    field: 'acrCheck',
    selection: ACR_FIELDS,
    aliases: ['acr_check', 'registry_match'],
  }),
];
