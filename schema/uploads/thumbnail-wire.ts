import type { StoredThumbnail } from '../../src/domains/uploads/index.ts';
import { builder, FACADE_ONLY, PUBLIC } from '../builder.ts';

const StoredThumbnailRef = builder.objectRef<StoredThumbnail>('StoredThumbnail').implement({
  description: 'A cover thumbnail as stored, for the byte route that sends it.',
  fields: (t) => ({
    storageKey: t.exposeString('storageKey'),
    contentType: t.exposeString('contentType'),
    size: t.exposeInt('size', { description: 'Bytes.' }),
  }),
});

/** Behind GET /api/files/thumbnails/…: public, since the URL's signature is the proof (docs/files.md). */
builder.queryField('coverThumbnailWire', (t) =>
  t.field({
    ...FACADE_ONLY,
    type: StoredThumbnailRef,
    authScopes: PUBLIC,
    description:
      'The thumbnail a signed thumbnail URL names (its path and query, unchecked), made on first request.',
    args: {
      ownerId: t.arg.string({ required: true }),
      name: t.arg.string({ required: true }),
      size: t.arg.string({ required: true }),
      expires: t.arg.string({ required: true }),
      sig: t.arg.string({ required: true }),
    },
    resolve: (_root, args, context) => context.app.coverThumbnails.serve(args, context.app.clock.now()),
  }),
);
