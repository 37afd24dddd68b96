import { z } from 'zod';
import { type PayloadPart, payloadLimitsText, payloadProblems } from '../../src/domains/releases/index.ts';
import type { WireShape } from '../wire-shape.ts';

/** `tracks[0].title` → `[0, 'title']` below the argument itself (the plugin puts the argument first). */
function segmentsBelowArgument(path: string): (string | number)[] {
  const segments = (path.match(/[^.[\]]+/g) ?? []).map((s) => (/^\d+$/.test(s) ? Number(s) : s));
  return segments.slice(1);
}

/** Zod validation of a release payload argument: shape and text limits, with the caller's field paths. */
export function payloadValidation(part: PayloadPart) {
  const schema = z.unknown().superRefine((value, ctx) => {
    for (const problem of payloadProblems(part, value)) {
      ctx.addIssue({ code: 'custom', message: problem.message, path: segmentsBelowArgument(problem.path) });
    }
  });
  return { schema: schema.meta({ description: payloadLimitsText(part) }) };
}

/**
 * Options of a facade-only JSON argument that carries a body of the spec as sent: the payload checks, and
 * the typed input it mirrors (the REST reference documents the body with that type's wire names).
 */
export function wireBody(part: PayloadPart, shape: WireShape) {
  return {
    validate: payloadValidation(part),
    extensions: { wireBody: { inputType: shape.input.name, list: part !== 'release' } },
  };
}
