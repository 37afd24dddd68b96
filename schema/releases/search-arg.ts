import { z } from 'zod';
import { SEARCH_MAX_LENGTH, SEARCH_MIN_LENGTH } from '../../src/domains/releases/index.ts';

/** The search box of the release lists (`releases`, `releasesConnection`, REST `search`). */
export const SEARCH_ARG = {
  required: false,
  description:
    'Finds the releases whose title contains the text (case-insensitive), whose UPC is the text (12 or 13 ' +
    'digits; a UPC-A also finds its EAN-13 with a leading zero, and back), or with a track whose ISRC is ' +
    'the text (case, spaces and hyphens aside: `us-abc-24-00001` finds `USABC2400001`). ' +
    `${SEARCH_MIN_LENGTH} to ${SEARCH_MAX_LENGTH} characters once trimmed.`,
  validate: {
    schema: z
      .string()
      .trim()
      .min(SEARCH_MIN_LENGTH, 'must not be empty once trimmed')
      .max(SEARCH_MAX_LENGTH, `must be at most ${SEARCH_MAX_LENGTH} characters once trimmed`),
  },
} as const;
