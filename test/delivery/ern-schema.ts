import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** DDEX's own ERN 4.3 schema, vendored byte for byte (vendor/ddex/ern/43/README.md). */
export const ERN_43_SCHEMA = path.resolve(
  import.meta.dirname,
  '../../vendor/ddex/ern/43/release-notification.xsd',
);

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('xmllint', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'ENOENT'
          ? new Error('xmllint is not installed: apt-get install libxml2-utils (docs/dependencies.md)')
          : error,
      ),
    );
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Validates each message against the ERN 4.3 schema with xmllint (libxml2), the schema parsed once for
 * the batch. Returns one list of errors per message, in order: empty means valid. libxml2 reports the
 * first error of each element, so a list is what stands between the message and the next run.
 */
export async function ernSchemaErrors(messages: readonly string[]): Promise<string[][]> {
  if (messages.length === 0) return [];
  const dir = await mkdtemp(path.join(tmpdir(), 'ern43-'));
  try {
    const files = messages.map((_, index) => path.join(dir, `message-${index}.xml`));
    await Promise.all(messages.map((message, index) => writeFile(files[index]!, message)));
    const { code, stderr } = await run(['--noout', '--nonet', '--schema', ERN_43_SCHEMA, ...files]);
    const lines = stderr.split('\n').filter(Boolean);
    if (lines.some((line) => /failed to compile|WXS schema .* failed/.test(line)))
      throw new Error(`the ERN 4.3 schema did not load:\n${stderr}`);
    const errors = files.map((file) =>
      lines.filter((line) => line.startsWith(`${file}:`) && !line.endsWith(' validates')),
    );
    const verdicts = files.map((file) => lines.some((line) => line === `${file} validates`));
    files.forEach((file, index) => {
      if (!verdicts[index] && errors[index]!.length === 0)
        errors[index]!.push(`${file}: no verdict (exit ${code})`);
    });
    return errors.map((list) => list.map((line) => line.slice(dir.length + 1)));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function ernSchemaErrorsOf(message: string): Promise<string[]> {
  return (await ernSchemaErrors([message]))[0]!;
}
