import { createCollector, sortIssues } from './issues.ts';
import { checkArtists } from './rules-artists.ts';
import { checkCredits } from './rules-credits.ts';
import { checkReleaseDate, checkStores } from './rules-dates-stores.ts';
import { checkGenres, checkUnknownFields } from './rules-fields.ts';
import { checkIsrcs, checkLinks, checkUpc } from './rules-identifiers.ts';
import { checkLocalization } from './rules-localization.ts';
import { checkLookups } from './rules-lookups.ts';
import { checkRequired } from './rules-required.ts';
import { checkTitles } from './rules-titles.ts';
import { scopeOf } from './scope.ts';
import type { NormalisedSubmission, RuleContext, RuleIssue } from './types.ts';

/**
 * Runs every rule of the catalog on a normalised submission. Issues come sorted by path (indices
 * numerically), then rule id, then message; the same input always gives the same list.
 */
export async function evaluateRules(
  submission: NormalisedSubmission,
  ctx: RuleContext,
): Promise<RuleIssue[]> {
  const { issues, report } = createCollector();
  const scope = scopeOf(submission);
  checkRequired(scope, report);
  checkArtists(scope, report);
  checkTitles(scope, report);
  const trackTypes = checkCredits(scope, report);
  const isrcs = checkIsrcs(scope, report);
  const upc = checkUpc(scope, report);
  checkLinks(scope, report);
  checkReleaseDate(scope, ctx.now, report);
  checkStores(scope, report);
  checkLocalization(scope, report);
  checkUnknownFields(scope, report);
  checkGenres(scope, report);
  await checkLookups(scope, ctx, { isrcs, upc, trackTypes }, report);
  return sortIssues(issues);
}
