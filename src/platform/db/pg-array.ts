/**
 * A PostgreSQL array literal of uuids or integers, for one `?::uuid[]` or `?::int[]` parameter (a JS
 * array parameter would be spread as a list of parameters).
 */
export const pgArray = (values: readonly (string | number)[]) => `{${values.join(',')}}`;
