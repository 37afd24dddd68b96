import { createHash } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Where the dashboard's browser code is: the workspace package packages/dashboard (its TypeScript
 * sources, bundled by the service itself, and the manifest of its trusted documents). The service
 * imports none of it: it reads the manifest and hands the sources to the bundler.
 */
const DASHBOARD_DIR = path.resolve(import.meta.dirname, '../../../packages/dashboard');
const SOURCES_DIR = path.join(DASHBOARD_DIR, 'src');

export const DASHBOARD_TSCONFIG = path.join(DASHBOARD_DIR, 'tsconfig.json');

/** A page's entry module: src/pages/<entry>/main.ts. */
export const pageEntry = (entry: string) => path.join(SOURCES_DIR, 'pages', entry, 'main.ts');

/** The dashboard's documents (npm run client:generate), trusted at start like GRAPHQL_DOCUMENTS_FILE's. */
export const DASHBOARD_MANIFEST = path.join(SOURCES_DIR, 'generated/persisted-documents.json');

/** A hash of every source file's name, size and modification time: it changes when a file does. */
export function sourcesFingerprint(): string {
  const hash = createHash('sha256');
  for (const name of readdirSync(SOURCES_DIR, { recursive: true }).map(String).sort()) {
    const stat = statSync(path.join(SOURCES_DIR, name));
    if (stat.isFile()) hash.update(`${name}\0${stat.size}\0${stat.mtimeMs}\n`);
  }
  return hash.digest('hex');
}
