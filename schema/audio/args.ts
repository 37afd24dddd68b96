import { builder } from '../builder.ts';
import { uuidValidation } from '../id-validation.ts';

/** The arguments every audio-file check takes: the file, and the draft track it belongs to. */
export const audioFileArgs = builder.args((t) => ({
  fileUrl: t.string({ required: true, validate: { minLength: 1, maxLength: 600 } }),
  fileName: t.string({ required: false, validate: { maxLength: 255 } }),
  releaseId: t.id({ required: false, validate: uuidValidation('release') }),
  conversationId: t.string({ required: false, validate: { maxLength: 200 } }),
  trackIndex: t.int({ required: false, validate: { min: 0, max: 999 } }),
}));
