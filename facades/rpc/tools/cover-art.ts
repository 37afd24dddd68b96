import { z } from 'zod';
import { FACTS, rateText } from '../../../schema/facade-facts.ts';
import { COVER_ART_FIELDS } from '../../selections.ts';
import { defineTool, type ToolRow } from '../tool.ts';

/** Argument names as the spec gives them for generate_cover_art. */
export const coverArtTools: ToolRow[] = [
  defineTool({
    name: 'generate_cover_art',
    title: 'Generate or edit cover art',
    description:
      'Generate album cover art from a text prompt, or edit a previous cover (baseFileUrl, one of yours in the ' +
      'cover-art store) or an image of your own (baseImageBase64) by a prompt describing the change. Stored as ' +
      'a 3000x3000 PNG; returns fileUrl (use it as cover_art_file_url), model, edited and rateLimit.remaining. ' +
      'With releaseId or conversationId the draft takes the cover. No credits are charged; ' +
      `${rateText(FACTS.coverArtRate, { unit: 'calls', insiders: 'in parentheses' })}. Errors: 400 bad prompt or base image, 403 base file not yours, 429 wait ` +
      'retryAfterSeconds, 502 retry with the same prompt, 503 generation turned off here.',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    args: z.object({
      // Checked by the service (COVER_ART_PROMPT's bounds) so that a missing or too long prompt answers 400.
      prompt: z
        .string()
        .optional()
        .describe('Required, 1 to 1500 characters: what to draw or, when editing, the change to make.'),
      baseFileUrl: z.string().max(2048).optional().describe('A cover-art fileUrl of yours to edit.'),
      baseImageBase64: z.string().optional().describe('An image to edit: raw base64 or a data: URL.'),
      baseImageMimeType: z.string().max(100).optional().describe('Informative only: the bytes decide.'),
      releaseId: z.string().min(1).optional().describe('A draft release of yours that takes this cover.'),
      conversationId: z.string().min(1).max(200).optional(),
      returnBase64: z.boolean().optional().describe('Also return the PNG as imageBase64.'),
      fileName: z.string().min(1).max(255).optional().describe('Default mcp-cover-<timestamp>.png.'),
    }),
    document: `mutation AgentGenerateCoverArt(
        $prompt: String!, $baseFileUrl: String, $baseImageBase64: String, $baseImageMimeType: String,
        $returnBase64: Boolean = false, $fileName: String, $releaseId: ID, $conversationId: String) {
      coverArt: generateCoverArt(input: {
        prompt: $prompt, baseFileUrl: $baseFileUrl, baseImageBase64: $baseImageBase64,
        baseImageMimeType: $baseImageMimeType, returnBase64: $returnBase64, fileName: $fileName,
        releaseId: $releaseId, conversationId: $conversationId
      }) { ${COVER_ART_FIELDS} } }`,
    variables: (a) => ({ ...a, prompt: a.prompt ?? '' }),
    select: 'coverArt',
    aliases: ['cover_art', 'create_cover_art', 'generate_cover'],
  }),
];
