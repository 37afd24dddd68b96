import { type DocumentNode, GraphQLError, Kind, visit } from 'graphql';
import { AppError } from '../src/platform/errors.ts';

const NUL = '\u0000';

/** Nesting beyond this in variables is refused, as the HTTP surfaces refuse it in JSON bodies. */
export const MAX_VARIABLE_DEPTH = 64;

const TOO_DEEP = Symbol('too deep');

/** `release.title`, `tracks[0].writers[1].name`: the segments of a path as the error details spell it. */
function pathOf(segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path = path ? `${path}.${segment}` : segment;
  }
  return path;
}

/**
 * One walk over the variables, in document order: TOO_DEEP when a value nests deeper than
 * MAX_VARIABLE_DEPTH (which wins, wherever it is), otherwise the path of the first string holding NUL,
 * or null. The recursion stops at the depth bound, so a hostile nesting cannot exhaust the stack, and
 * nothing is allocated for a value but the path of the one it reports.
 */
function inspectVariables(root: unknown): typeof TOO_DEEP | string | null {
  const segments: (string | number)[] = [];
  let nulPath: string | null = null;
  const visit = (value: unknown, depth: number): boolean => {
    if (depth > MAX_VARIABLE_DEPTH) return true;
    if (typeof value === 'string') {
      if (nulPath === null && value.includes(NUL)) nulPath = pathOf(segments);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        segments.push(i);
        if (visit(value[i], depth + 1)) return true;
        segments.pop();
      }
    } else if (typeof value === 'object' && value !== null) {
      for (const key of Object.keys(value)) {
        segments.push(key);
        if (visit((value as Record<string, unknown>)[key], depth + 1)) return true;
        segments.pop();
      }
    }
    return false;
  };
  return visit(root, 0) ? TOO_DEEP : nulPath;
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
  const found = inspectVariables(variables ?? {});
  if (found === TOO_DEEP) {
    const error = new AppError(
      'invalid_request_error',
      'json_too_deep',
      `The variables nest deeper than ${MAX_VARIABLE_DEPTH} levels.`,
    );
    return new GraphQLError(error.message, { originalError: error });
  }
  const path = found ?? literalWithNul(document);
  if (path === null) return null;
  const error = new AppError(
    'invalid_request_error',
    'invalid_string',
    `${path} contains a NUL character (\\u0000); text fields take no control character NUL.`,
    { details: [{ path, message: 'contains a NUL character' }] },
  );
  return new GraphQLError(error.message, { originalError: error });
}
