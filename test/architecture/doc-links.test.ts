import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { filesUnder } from '../support/source-files.ts';

const ROOT = path.resolve('.');
const TOP_DIRS = ['docs', 'src', 'schema', 'facades', 'test', 'bench', 'vendor', '.ci', 'packages'];
/** Files whose comments are `#` lines. */
const HASH_COMMENTED = ['.ci/run', '.env.example', 'Dockerfile', 'docker-compose.yml'];

/** `src/entities.ts`, `docs/scale.md` (not `**`, `<placeholder>` or `{a,b}` patterns, which name no one file). */
const REPO_PATH = new RegExp(
  `(?<![\\w./@-])((?:${TOP_DIRS.map((dir) => dir.replace('.', '\\.')).join('|')})/[\\w./@*<>{}…-]*[\\w@*>}…-])`,
  'g',
);
/** A file named without its folder: `claim-queue.ts`, `durability.md`. */
const BARE_NAME = /(?<![\w./@*-])([\w-]+(?:\.[\w-]+)*\.(?:md|ts))\b/g;
/** A section named after its document: `docs/scale.md, "Stopping"` (a heading that starts so). */
const QUOTED_SECTION = /([\w./-]+\.md),? "([^"]+)"/g;
/** `[text](target)`, not `![image](…)` nor a link to another site. */
const MARKDOWN_LINK = /(?<!!)\[[^\]]*\]\(([^)\s]+)\)/g;

/** The comments of a TypeScript or JavaScript file (strings skipped, so `'//'` in code is no comment). */
function commentsOf(text: string): string[] {
  const comments: string[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    const next = text[at + 1];
    if (char === '/' && (next === '/' || next === '*')) {
      const close = next === '/' ? text.indexOf('\n', at) : text.indexOf('*/', at + 2);
      const end = close < 0 ? text.length : close + (next === '*' ? 2 : 0);
      comments.push(text.slice(at, end));
      at = end;
    } else if (char === "'" || char === '"' || char === '`') {
      at += 1;
      while (at < text.length && text[at] !== char && (char === '`' || text[at] !== '\n')) {
        at += text[at] === '\\' ? 2 : 1;
      }
      at += 1;
    } else {
      at += 1;
    }
  }
  return comments;
}

/** A markdown file's text outside fenced code blocks (a link there is an example, not a link). */
const outsideFences = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

const markdownFiles = () => ['README.md', ...filesUnder('docs', (name) => name.endsWith('.md'))];
const sourceFiles = () => [
  ...[
    'src',
    'schema',
    'facades',
    'test',
    'bench',
    'packages/client/src',
    'packages/client/test',
    'packages/dashboard/src',
  ]
    .flatMap((dir) => filesUnder(dir, (name) => /\.[jt]s$/.test(name)))
    // Generated from the schema and the OpenAPI document: their comments are those texts'.
    .filter((file) => !/^packages\/(client|dashboard)\/src\/generated\//.test(file)),
  ...filesUnder('packages/client/scripts'),
  ...filesUnder('packages/dashboard/scripts'),
  ...readdirSync(ROOT).filter((name) => name.endsWith('.ts')),
];

/** Every file name in the repository: a bare name must be one of them. */
const allNames = () =>
  new Set(
    TOP_DIRS.filter((dir) => existsSync(path.join(ROOT, dir)))
      .flatMap((dir) => filesUnder(dir, () => true))
      .concat(readdirSync(ROOT))
      .map((file) => path.basename(file)),
  );

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

function headingsOf(file: string): string[] {
  const text = outsideFences(readFileSync(path.join(ROOT, file), 'utf8'));
  return [...text.matchAll(/^#{1,6} (.+)$/gm)].map((match) => match[1]!.trim());
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  return new Set(
    headingsOf(file).map((heading) => {
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      return count === 0 ? base : `${base}-${count}`;
    }),
  );
}

/** The repository file a `.md` name points to: a path, or the one file of that name. */
function markdownFile(name: string, from: string): string | undefined {
  for (const candidate of [path.join(path.dirname(from), name), name, path.join('docs', name)]) {
    if (existsSync(path.join(ROOT, candidate))) return path.normalize(candidate);
  }
  return undefined;
}

/** What is wrong with the references in one stretch of text (a comment, or a whole document). */
function problemsIn(text: string, from: string, names: Set<string>): string[] {
  const problems: string[] = [];
  for (const [, target] of text.matchAll(REPO_PATH)) {
    if (/[*<>{}…]/.test(target!)) continue;
    if (!existsSync(path.join(ROOT, target!))) problems.push(`${from}: ${target} does not exist`);
  }
  for (const [, name] of text.matchAll(BARE_NAME)) {
    if (!names.has(name!)) problems.push(`${from}: no file is named ${name}`);
  }
  for (const [, name, section] of text.matchAll(QUOTED_SECTION)) {
    const doc = markdownFile(name!, from);
    const starts = (heading: string) =>
      heading.replaceAll('`', '').toLowerCase().startsWith(section!.toLowerCase());
    if (doc && !headingsOf(doc).some(starts)) problems.push(`${from}: ${doc} has no section "${section}"`);
  }
  return problems;
}

function markdownLinkProblems(file: string, text: string): string[] {
  const problems: string[] = [];
  for (const [, target] of text.matchAll(MARKDOWN_LINK)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue;
    const [relative = '', anchor] = target!.split('#');
    const linked = relative === '' ? file : path.normalize(path.join(path.dirname(file), relative));
    if (!existsSync(path.join(ROOT, linked))) {
      problems.push(`${file}: link to ${target}, and ${linked} does not exist`);
    } else if (anchor !== undefined && linked.endsWith('.md') && !anchorsOf(linked).has(anchor)) {
      problems.push(`${file}: link to ${target}, and ${linked} has no heading #${anchor}`);
    }
  }
  return problems;
}

it('every file, section and anchor that a doc or a comment names exists', () => {
  const names = allNames();
  const problems: string[] = [];
  for (const file of markdownFiles()) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    problems.push(...markdownLinkProblems(file, outsideFences(text)), ...problemsIn(text, file, names));
  }
  for (const file of sourceFiles()) {
    for (const comment of commentsOf(readFileSync(path.join(ROOT, file), 'utf8'))) {
      problems.push(...problemsIn(comment, file, names));
    }
  }
  for (const file of HASH_COMMENTED.filter((name) => existsSync(path.join(ROOT, name)))) {
    const lines = readFileSync(path.join(ROOT, file), 'utf8').split('\n');
    const comments = lines.filter((line) => line.trimStart().startsWith('#')).join('\n');
    problems.push(...problemsIn(comments, file, names));
  }
  expect(problems).toEqual([]);
});

it('reports a missing file, file name, section, link and anchor, and passes the ones that exist', () => {
  const names = allNames();
  const comment = commentsOf(
    "const a = 'see docs/nowhere.md'; // see `docs/nowhere.md` and src/entities.ts\n/* gone.ts, durability.md */",
  ).join('\n');
  expect(problemsIn(comment, 'src/x.ts', names)).toEqual([
    'src/x.ts: docs/nowhere.md does not exist',
    'src/x.ts: no file is named gone.ts',
  ]);
  expect(problemsIn('(docs/scale.md, "Stopping"; docs/scale.md, "Starting")', 'README.md', names)).toEqual([
    'README.md: docs/scale.md has no section "Starting"',
  ]);
  expect(
    markdownLinkProblems(
      'docs/oauth.md',
      '[a](scale.md#stopping-sigterm-sigint) [b](scale.md#nope) [c](gone.md)',
    ),
  ).toEqual([
    'docs/oauth.md: link to scale.md#nope, and docs/scale.md has no heading #nope',
    'docs/oauth.md: link to gone.md, and docs/gone.md does not exist',
  ]);
});
