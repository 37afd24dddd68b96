import { type DocumentNode, GraphQLError, Kind, visit } from 'graphql';
import { AppError } from '../src/platform/errors.ts';
import { walkJson } from '../src/platform/json-walk.ts';

const NUL = '\u0000';

/** The path (`release.title`, `tracks[0].writers[1].name`) of the first string holding NUL, or null. */
export function nulCharacterPath(value: unknown): string | null {
  let found: string | null = null;
  walkJson(value, (node) => {
    if (typeof node.value === 'string' && node.value.includes(NUL)) found = node.path;
    return found !== null;
  });
  return found;
}

/** Nesting beyond this in variables is refused, as the HTTP surfaces refuse it in JSON bodies. */
export const MAX_VARIABLE_DEPTH = 64;

function tooDeep(value: unknown): boolean {
  let deep = false;
  walkJson(value, (node) => {
    deep = node.depth > MAX_VARIABLE_DEPTH;
    return deep;
  });
  return deep;
}

/** Documents are immutable: the facades' prepared ones are checked once, not on every request. */
const literalChecks = new WeakMap<DocumentNode, string | null>();

/** The argument or input field name of the first string literal holding NUL (nested literals too), or null. */
function literalWithNul(document: DocumentNode): string | null {
  const known = literalChecks.get(document);
  if (known !== undefined) return known;
  const found = findLiteralWithNul(document);
  literalChecks.set(document, found);
  return found;
}

function findLiteralWithNul(document: DocumentNode): string | null {
  let found: string | null = null;
  const names: string[] = [];
  const enter = (node: { name: { value: string } }) => {
    names.push(node.name.value);
  };
  const leave = () => {
    names.pop();
  };
  visit(document, {
    [Kind.ARGUMENT]: { enter, leave },
    [Kind.OBJECT_FIELD]: { enter, leave },
    [Kind.STRING]: (node) => {
      if (found === null && node.value.includes(NUL)) found = names.join('.') || 'query';
    },
  });
  return found;
}

/**
 * No input string may hold the NUL character: PostgreSQL cannot store it in text or jsonb, and no field
 * of the API has a use for it. Checked once for every operation, before any resolver runs.
 */
export function refuseHostileInput(
  document: DocumentNode,
  variables: Readonly<Record<string, unknown>> | null | undefined,
): GraphQLError | null {
  if (tooDeep(variables)) {
    const error = new AppError(
      'invalid_request_error',
      'json_too_deep',
      `The variables nest deeper than ${MAX_VARIABLE_DEPTH} levels.`,
    );
    return new GraphQLError(error.message, { originalError: error });
  }
  const path = nulCharacterPath(variables ?? {}) ?? literalWithNul(document);
  if (path === null) return null;
  const error = new AppError(
    'invalid_request_error',
    'invalid_string',
    `${path} contains a NUL character (\\u0000); text fields take no control character NUL.`,
    { details: [{ path, message: 'contains a NUL character' }] },
  );
  return new GraphQLError(error.message, { originalError: error });
}
