import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const MAIN = path.resolve(import.meta.dirname, '../src/main.ts');
export const NODE_ARGS = ['--conditions=tributary-source', '--no-warnings=ExperimentalWarning', MAIN];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A config directory of the test's own (XDG_CONFIG_HOME), removed with `cleanup`. */
export function tempConfig(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(path.join(tmpdir(), 'tributary-cli-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Starts the CLI as a child process (no TTY: stdout is a pipe). */
export function startCli(
  args: string[],
  env: Record<string, string>,
): ChildProcess & { output: CliRun; done: Promise<CliRun> } {
  return startProcess(process.execPath, [...NODE_ARGS, ...args], env);
}

function startProcess(
  file: string,
  args: string[],
  env: Record<string, string>,
): ChildProcess & { output: CliRun; done: Promise<CliRun> } {
  const { TRIBUTARY_TOKEN: _token, TRIBUTARY_API_URL: _url, ...inherited } = process.env;
  const child = spawn(file, args, {
    env: { ...inherited, ...env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: CliRun = { code: null, stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const done = new Promise<CliRun>((resolve) => {
    child.on('close', (code) => {
      output.code = code;
      resolve(output);
    });
  });
  return Object.assign(child, { output, done });
}

/**
 * Starts the CLI under a pseudo-terminal (util-linux's script): stdout is a TTY, as in a terminal, of
 * TERMINAL_COLUMNS columns. The width is set on the terminal itself before the CLI starts: without a
 * terminal of its own, script leaves the size unset, and what the CLI reads then depends on timing
 * (cli-progress cuts each line to the width it sees, 80 columns when it sees none).
 */
export function startCliInTerminal(
  args: string[],
  env: Record<string, string>,
): ChildProcess & { output: CliRun; done: Promise<CliRun> } {
  const command = [process.execPath, ...NODE_ARGS, ...args].map((word) => `'${word}'`).join(' ');
  const sized = `stty cols ${TERMINAL_COLUMNS} rows 40 && exec ${command}`;
  return startProcess('script', ['-q', '-e', '-c', sized, '/dev/null'], env);
}

/** Wide enough for an upload's bar line (name, bar, percentage, bytes, rate and ETA: about 115). */
const TERMINAL_COLUMNS = 160;

/** Runs the CLI to its end. */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return startCli(args, env).done;
}

/** Waits until `check` holds (polling), or fails naming `what`. */
export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
