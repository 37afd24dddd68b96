import { findRule } from '../rule-catalog.ts';
import type { RuleIssue } from './types.ts';

/** A JSON object as sent: every value is unknown until a rule looked at it. */
export type Obj = Record<string, unknown>;

export function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sent with a value: neither omitted (undefined) nor null. */
export function isSent(value: unknown): boolean {
  return value !== undefined && value !== null;
}

/** A non-blank string, trimmed; undefined for anything else. */
export function text(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** An optional field counts as omitted when undefined, null or a blank string. */
export function isOmitted(value: unknown): boolean {
  return !isSent(value) || (typeof value === 'string' && value.trim() === '');
}

/** A sent value as it appears in a message: strings quoted, long values cut. */
export function show(value: unknown): string {
  let shown: string;
  if (value === undefined) shown = 'undefined';
  else if (typeof value === 'number' || typeof value === 'boolean') shown = String(value);
  else {
    try {
      shown = JSON.stringify(value) ?? String(value);
    } catch {
      shown = String(value);
    }
  }
  return shown.length > 80 ? `${shown.slice(0, 77)}...` : shown;
}

/** The JSON type name of a value, for type errors. */
export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

export type Report = (rule: string, path: string, message: string, suggestion?: string) => void;

/** Collects issues; the severity always comes from the catalog. */
export function createCollector(): { issues: RuleIssue[]; report: Report } {
  const issues: RuleIssue[] = [];
  const report: Report = (rule, path, message, suggestion) => {
    const descriptor = findRule(rule);
    if (!descriptor) throw new Error(`rules engine: unknown rule id ${rule}`);
    const issue: RuleIssue = { rule, severity: descriptor.severity, path, message };
    if (suggestion !== undefined) issue.suggestion = suggestion;
    issues.push(issue);
  };
  return { issues, report };
}

function pathTokens(path: string): (string | number)[] {
  return [...path.matchAll(/\[(\d+)\]|[^.[\]]+/g)].map((match) =>
    match[1] === undefined ? match[0] : Number(match[1]),
  );
}

const compareStrings = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Orders field paths by segment, indices numerically (`tracks[2]` before `tracks[10]`). */
export function comparePaths(a: string, b: string): number {
  const left = pathTokens(a);
  const right = pathTokens(b);
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i]!;
    const y = right[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'number') return -1;
    if (typeof y === 'number') return 1;
    return compareStrings(x, y);
  }
  return left.length - right.length;
}

/** Sorted by path, then rule id, then message; exact duplicates dropped. */
export function sortIssues(issues: RuleIssue[]): RuleIssue[] {
  const seen = new Set<string>();
  const unique = issues.filter((issue) => {
    const key = JSON.stringify([issue.path, issue.rule, issue.message, issue.suggestion ?? null]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return unique.sort(
    (a, b) =>
      comparePaths(a.path, b.path) ||
      compareStrings(a.rule, b.rule) ||
      compareStrings(a.message, b.message) ||
      compareStrings(a.suggestion ?? '', b.suggestion ?? ''),
  );
}

export function hasErrors(issues: readonly RuleIssue[]): boolean {
  return issues.some((issue) => issue.severity === 'error');
}
