import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { breakingChanges, SCHEMA_FILE, schemaHistory } from '../../schema/tools/breaking-changes.ts';

const V1 =
  'type Query { release(id: ID!): Release }\ntype Release { id: ID! title: String status: String }\n';
const ADDED =
  'type Query { release(id: ID!): Release }\ntype Release { id: ID! title: String status: String upc: String }\n';
const NO_TITLE = 'type Query { release(id: ID!): Release }\ntype Release { id: ID! }\n';
const REMOVED = 'type Query { release(id: ID!): Release }\ntype Release { id: ID! title: String }\n';

describe('breaking changes of the printed schema', () => {
  it('an added field is not breaking; a removed one is, and is named', async () => {
    expect(await breakingChanges(V1, ADDED)).toEqual([]);
    const breaking = await breakingChanges(V1, REMOVED);
    expect(breaking).toHaveLength(1);
    expect(breaking[0]).toContain('status');
  });

  describe('over a repository history', () => {
    let repo = '';
    afterEach(() => rmSync(repo, { recursive: true, force: true }));

    const commit = (sdl: string, message: string) => {
      writeFileSync(path.join(repo, SCHEMA_FILE), sdl);
      execFileSync('git', ['-C', repo, 'add', '-A']);
      execFileSync('git', [
        '-C',
        repo,
        '-c',
        'user.name=t',
        '-c',
        'user.email=t@t',
        'commit',
        '-qm',
        message,
      ]);
      return execFileSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim();
    };

    it('flags an unmarked break, accepts one marked intended, ignores what came before `since`', async () => {
      repo = mkdtempSync(path.join(tmpdir(), 'schema-history-'));
      mkdirSync(path.join(repo, 'schema'));
      execFileSync('git', ['init', '-q', repo]);
      const first = commit(V1, 'first');
      commit(ADDED, 'add upc');
      commit(REMOVED, 'drop status and upc');
      commit(NO_TITLE, 'Drop title\n\nBreaking-Change: intended — titles moved to a type of their own');
      const verdicts = await schemaHistory(repo, first);
      expect(verdicts.map((v) => [v.subject, v.breaking.length > 0, v.intended])).toEqual([
        ['add upc', false, false],
        ['drop status and upc', true, false],
        ['Drop title', true, true],
      ]);
      const later = await schemaHistory(repo, 'HEAD~1');
      expect(later.map((v) => v.subject)).toEqual(['Drop title']);
    });
  });
});
