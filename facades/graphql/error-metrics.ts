import { errorTypeOf } from '../../schema/errors.ts';
import type { AppServices } from '../../schema/services.ts';
import { isErrorType } from '../rest/errors.ts';

/** One GraphQL error in the metrics, by its type (`api_error` when it names none of ours). */
export function countGraphQLError(app: AppServices, error: Parameters<typeof errorTypeOf>[0]): void {
  const type = errorTypeOf(error);
  app.metrics.countError('graphql', isErrorType(type) ? type : 'api_error');
}
