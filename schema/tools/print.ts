/** Prints the schema to schema/schema.graphql; with --check, fails when the committed file is stale. */
import { lexicographicSortSchema, printSchema } from 'graphql';
import { writeOrCheckGenerated } from '../../src/platform/generated-file.ts';
import { getSchema } from '../index.ts';

writeOrCheckGenerated(
  'schema/schema.graphql',
  `${printSchema(lexicographicSortSchema(getSchema()))}\n`,
  'npm run schema:print',
);
