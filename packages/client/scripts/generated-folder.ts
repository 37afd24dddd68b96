/**
 * The generated folders' counterpart of the service's src/platform/generated-file.ts, here because the
 * client's scripts import nothing of the service: packages/client's and packages/dashboard's generators
 * both end with it.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Every file under `dir`, as paths relative to it; none when `dir` does not exist. */
function listFiles(dir: string, prefix = ''): string[] {
  let entries: import('node:fs').Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) =>
    entry.isDirectory()
      ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
      : [`${prefix}${entry.name}`],
  );
}

/**
 * Writes a generated, committed folder whole, `files` by their paths inside it (a file no longer
 * generated goes with the rest); with `--check` in argv, writes nothing and exits 1 when a committed file
 * differs or is missing, or is no longer generated (CI's drift check), naming each and how to regenerate
 * them. `folder` is the folder's path from `repositoryDir`, as the messages name it.
 */
export function writeOrCheckGeneratedFolder(
  repositoryDir: string,
  folder: string,
  files: Record<string, string>,
  regenerate: string,
): void {
  const dir = path.join(repositoryDir, folder);
  const count = Object.keys(files).length;
  if (process.argv.includes('--check')) {
    const stale = Object.entries(files)
      .filter(([name, content]) => {
        try {
          return readFileSync(path.join(dir, name), 'utf8') !== content;
        } catch {
          return true;
        }
      })
      .map(([name]) => name);
    const extra = listFiles(dir).filter((name) => !(name in files));
    if (stale.length > 0 || extra.length > 0) {
      for (const name of stale) console.error(`${folder}/${name} is stale`);
      for (const name of extra) console.error(`${folder}/${name} is no longer generated`);
      console.error(`run \`${regenerate}\` and commit the result.`);
      process.exit(1);
    }
    console.log(`${folder} is up to date (${count} files)`);
    return;
  }
  rmSync(dir, { recursive: true, force: true });
  for (const [name, content] of Object.entries(files)) {
    const target = path.join(dir, name);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
  console.log(`wrote ${folder} (${count} files)`);
}
