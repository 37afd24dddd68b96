import { FACTS, rateText } from '../../../schema/facade-facts.ts';
import { COVER_ART_FIELDS } from '../../selections.ts';
import { bodyField, type RestRoute } from '../route.ts';

export const coverArtRoutes: RestRoute[] = [
  {
    operationId: 'generateCoverArt',
    method: 'POST',
    path: '/cover-art',
    summary: `Generate cover art from a prompt, or edit a base image by it (${rateText(FACTS.coverArtRate)}; no credits)`,
    tag: 'Audio intelligence and cover art',
    auth: 'bearer',
    document: /* GraphQL */ `
      mutation GenerateCoverArt(
        $prompt: String!, $baseFileUrl: String, $baseImageBase64: String, $baseImageMimeType: String,
        $returnBase64: Boolean = false, $fileName: String, $releaseId: ID, $conversationId: String
      ) {
        coverArt: generateCoverArt(input: {
          prompt: $prompt, baseFileUrl: $baseFileUrl, baseImageBase64: $baseImageBase64,
          baseImageMimeType: $baseImageMimeType, returnBase64: $returnBase64, fileName: $fileName,
          releaseId: $releaseId, conversationId: $conversationId
        }) { ${COVER_ART_FIELDS} }
      }
    `,
    variables: {
      prompt: bodyField('prompt'),
      baseFileUrl: bodyField('base_file_url'),
      baseImageBase64: bodyField('base_image_base64'),
      baseImageMimeType: bodyField('base_image_mime_type'),
      returnBase64: bodyField('return_base64'),
      fileName: bodyField('file_name'),
      releaseId: bodyField('release_id'),
      conversationId: bodyField('conversation_id'),
    },
    select: 'coverArt',
    status: 201,
    errors: ['502', '503'],
  },
];
