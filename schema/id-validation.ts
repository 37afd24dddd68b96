import { z } from 'zod';
import { isUuid } from '../src/platform/ids.ts';

/** An id argument: a UUID, refused at the edge with the argument's name before any lookup. */
export function uuidValidation(what: string) {
  const schema = z.string().refine(isUuid, {
    message: `not a valid ${what} id (a UUID such as 3f2b6c1e-8d4a-4c1b-9e2f-0a1b2c3d4e5f)`,
  });
  return { schema: schema.meta({ format: 'uuid' }) };
}
