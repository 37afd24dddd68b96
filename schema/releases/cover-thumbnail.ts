import { z } from 'zod';
import { DEFAULT_THUMBNAIL_SIZE, isThumbnailSize, THUMBNAIL_SIZES } from '../../src/domains/uploads/index.ts';
import { builder } from '../builder.ts';
import { FileDownloadRef } from '../uploads/file.ts';
import { coverFileOf } from './cover-file.ts';
import { ReleaseRef } from './release.ts';

const sizes = THUMBNAIL_SIZES.join(', ');

builder.objectField(ReleaseRef, 'coverThumbnail', (t) =>
  t.field({
    type: FileDownloadRef,
    nullable: true,
    description:
      'A small square image of the cover art, for lists: a signed URL on this service that a browser loads ' +
      'without a token (an `<img src>`), a WebP of `size` pixels, cached privately for long. The URL is the ' +
      'same for every read within a few hours and lives 6 to 12 hours (`expiresAt`); read the field again ' +
      'for a new one. Null when the release names no cover art of its account.',
    args: {
      size: t.arg.int({
        required: false,
        defaultValue: DEFAULT_THUMBNAIL_SIZE,
        description: `Width and height in pixels: one of ${sizes}.`,
        // An explicit null is the default size.
        validate: {
          schema: z.custom<number>((value) => value === null || isThumbnailSize(value), {
            message: `must be one of ${sizes}`,
          }),
        },
      }),
    },
    resolve: async (release, args, context) => {
      const file = await coverFileOf(release, context);
      if (file?.store !== 'cover-art') return null;
      return context.app.coverThumbnails.urlFor(
        { ownerId: file.account.id, name: file.name },
        args.size ?? DEFAULT_THUMBNAIL_SIZE,
        context.app.clock.now(),
      );
    },
  }),
);
