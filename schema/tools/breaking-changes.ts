import { execFileSync } from 'node:child_process';
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { buildSchema } from 'graphql';

export const SCHEMA_FILE = 'schema/schema.graphql';

/** The trailer a commit message carries when it breaks the schema on purpose, with the reason after it. */
export const INTENDED_MARKER = /^Breaking-Change: intended\b/m;

/** The breaking changes from one printed schema to the next, in words. */
export async function breakingChanges(before: string, after: string): Promise<string[]> {
  const changes = await diff(buildSchema(before), buildSchema(after));
  return changes
    .filter((change) => change.criticality.level === CriticalityLevel.Breaking)
    .map((change) => change.message);
}

export interface CommitVerdict {
  commit: string;
  subject: string;
  breaking: string[];
  intended: boolean;
}

const git = (repo: string, args: string[]) =>
  execFileSync('git', ['-C', repo, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });

/**
 * Every commit after `since` that changed the printed schema, with what it broke. A commit breaks the
 * contract acceptably only when its message says so (`Breaking-Change: intended — why`).
 */
export async function schemaHistory(repo: string, since: string): Promise<CommitVerdict[]> {
  const commits = git(repo, ['rev-list', '--reverse', `${since}..HEAD`, '--', SCHEMA_FILE])
    .split('\n')
    .filter(Boolean);
  const verdicts: CommitVerdict[] = [];
  for (const commit of commits) {
    const message = git(repo, ['log', '-1', '--format=%B', commit]);
    let before: string;
    try {
      before = git(repo, ['show', `${commit}^:${SCHEMA_FILE}`]);
    } catch {
      continue; // the schema's first commit breaks nothing
    }
    const after = git(repo, ['show', `${commit}:${SCHEMA_FILE}`]);
    verdicts.push({
      commit,
      subject: message.split('\n')[0] ?? '',
      breaking: await breakingChanges(before, after),
      intended: INTENDED_MARKER.test(message),
    });
  }
  return verdicts;
}
