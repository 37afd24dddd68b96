import { builder } from './builder.ts';

/**
 * The one casing convention of the schema's enums: SCREAMING_SNAKE_CASE names (GraphQL's convention),
 * whose values are the domain's own strings (`release.status_changed` ↔ RELEASE_STATUS_CHANGED,
 * `taken_down` ↔ TAKEN_DOWN, `coverArt` ↔ COVER_ART).
 */
export function enumName(value: string): string {
  return value
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toUpperCase();
}

/** A GraphQL enum generated from one of the domain's `as const` lists; descriptions per value optional. */
export function enumFromList<const T extends readonly string[]>(
  name: string,
  values: T,
  options: { description: string; valueDescriptions?: Partial<Record<T[number], string>> },
) {
  return builder.enumType(name, {
    description: options.description,
    values: Object.fromEntries(
      values.map((value) => [
        enumName(value),
        {
          value: value as T[number],
          ...(options.valueDescriptions?.[value as T[number]]
            ? { description: options.valueDescriptions[value as T[number]] }
            : {}),
        },
      ]),
    ) as Record<string, { value: T[number]; description?: string }>,
  });
}
