import { readFileSync } from 'node:fs';
import type { paths, TributaryClient } from '@tributary/client';
import type { Command } from 'commander';
import { CliError, EXIT } from '../exit-codes.ts';
import { createOutput, type Output } from '../output.ts';
import { type GlobalOptions, signedInClient } from '../session.ts';
import { type WatchResult, watchRelease } from '../watch.ts';

type SubmitBody = paths['/releases']['post']['requestBody']['content']['application/json'];
type QuoteBody = paths['/releases/quote']['post']['requestBody']['content']['application/json'];

interface Finding {
  rule: string;
  severity: string;
  path: string;
  message: string;
  suggestion: string | null;
}

function readRelease(file: string): SubmitBody {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as Error).message}`, EXIT.usage, 'file_not_found');
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${file} is not JSON: ${(error as Error).message}`, EXIT.usage, 'invalid_json');
  }
}

const findingLines = (findings: Finding[]) =>
  findings.flatMap((finding) => [
    `  ${finding.severity === 'error' ? '✗' : '!'} ${finding.path}: ${finding.message} [${finding.rule}]`,
    ...(finding.suggestion ? [`      fix: ${finding.suggestion}`] : []),
  ]);

async function quote(client: TributaryClient, file: string) {
  const { data } = await client.rest.POST('/releases/quote', { body: readRelease(file) as QuoteBody });
  return data!;
}

/** Prints the rule findings; answers whether something blocks the submission. */
function reportFindings(out: Output, blockers: Finding[], warnings: Finding[]): boolean {
  if (blockers.length)
    out.line(`${blockers.length} blocking finding(s):\n${findingLines(blockers).join('\n')}`);
  if (warnings.length) out.line(`${warnings.length} warning(s):\n${findingLines(warnings).join('\n')}`);
  if (!blockers.length && !warnings.length) out.line('No rule findings.');
  return blockers.length > 0;
}

function finishWatch(out: Output, result: WatchResult, extra: Record<string, unknown> = {}): void {
  out.result({ ...extra, ...result });
  if (result.failedStores.length)
    throw new CliError(
      `stores failed or rejected the release: ${result.failedStores.join(', ')}`,
      EXIT.storeFailed,
      'store_failed',
    );
  out.line(`Every store is final (${result.aggregateStatus}).`);
}

const RELEASE_FILE_HELP = `
The release file is the body of POST /v1/releases: {"release": {...}, "tracks": [...]}
(GET /v1/release-schema has the fields and a complete example).`;

export function registerReleaseCommands(program: Command): void {
  program
    .command('validate')
    .description('Check a release against the metadata rules, printing each finding with its fix')
    .argument('<release.json>', 'the release to check')
    .addHelpText(
      'after',
      `${RELEASE_FILE_HELP}\n\nExamples:\n  $ tributary validate release.json\n  $ tributary validate release.json --json | jq '.blockers'`,
    )
    .action(async (file: string, _options: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      const client = await signedInClient(globals);
      const answer = await quote(client, file);
      out.result({ submittable: answer.submittable, blockers: answer.blockers, warnings: answer.warnings });
      if (reportFindings(out, answer.blockers, answer.warnings))
        throw new CliError('the release has blocking findings', EXIT.blocked, 'release_blocked');
    });

  program
    .command('quote')
    .description('Price a release (credits, balance) and check its rules')
    .argument('<release.json>', 'the release to price')
    .addHelpText('after', `${RELEASE_FILE_HELP}\n\nExample:\n  $ tributary quote release.json`)
    .action(async (file: string, _options: unknown, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      const client = await signedInClient(globals);
      const answer = await quote(client, file);
      out.result(answer);
      out.line(
        `Cost: ${answer.cost.totalCredits} credits (${answer.cost.totalUsd} ${answer.currency}); balance ${answer.balance.available}${answer.balance.covered ? '' : `, short by ${answer.balance.shortfallCredits}`}`,
      );
      if (reportFindings(out, answer.blockers, answer.warnings))
        throw new CliError('the release has blocking findings', EXIT.blocked, 'release_blocked');
    });

  program
    .command('submit')
    .description('Submit a release for distribution (checked first); --watch follows every store live')
    .argument('<release.json>', 'the release to submit')
    .option('--watch', 'follow the stores until every one is final')
    .option(
      '--idempotency-key <key>',
      'the same key again answers the release it made, uncharged (safe retries)',
    )
    .addHelpText(
      'after',
      `${RELEASE_FILE_HELP}\n\nExamples:\n  $ tributary submit release.json\n  $ tributary submit release.json --watch\n  $ tributary submit release.json --idempotency-key harbour-lines-1 --json`,
    )
    .action(async (file: string, options: { watch?: boolean; idempotencyKey?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      const client = await signedInClient(globals);
      const checked = await quote(client, file);
      if (checked.blockers.length) {
        out.result({ submitted: false, blockers: checked.blockers, warnings: checked.warnings });
        reportFindings(out, checked.blockers, checked.warnings);
        throw new CliError(
          'the release has blocking findings: nothing was submitted',
          EXIT.blocked,
          'release_blocked',
        );
      }
      const { data } = await client.rest.POST('/releases', {
        body: readRelease(file),
        ...(options.idempotencyKey
          ? { params: { header: { 'Idempotency-Key': options.idempotencyKey } } }
          : {}),
      });
      const submitted = data!;
      out.line(
        submitted.alreadySubmitted
          ? `Already submitted as ${submitted.releaseId} (nothing charged)`
          : `Submitted ${submitted.releaseId} (${submitted.creditsCharged} credits charged)`,
      );
      if (!options.watch) {
        out.result(submitted);
        await client.close();
        return;
      }
      finishWatch(out, await watchRelease(client, submitted.releaseId, out, true), { submitted });
    });

  program
    .command('status')
    .description('Show the per-store status of a release; --watch follows it live until every store is final')
    .argument('<releaseId>', 'the release')
    .option('--watch', 'follow the stores until every one is final')
    .addHelpText('after', '\nExamples:\n  $ tributary status 9d6c…\n  $ tributary status 9d6c… --watch')
    .action(async (releaseId: string, options: { watch?: boolean }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      const client = await signedInClient(globals);
      const result = await watchRelease(client, releaseId, out, Boolean(options.watch));
      if (options.watch) finishWatch(out, result);
      else out.result(result);
    });
}
