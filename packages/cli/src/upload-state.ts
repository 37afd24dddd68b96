import { statSync } from 'node:fs';
import path from 'node:path';
import { configDir, readJson, writePrivateJson } from './config.ts';

/** The upload sessions of files not finished yet, keyed by the file (path, size, modification time). */
type UploadState = Record<string, { sessionId: string; type: string; startedAt: string }>;

const statePath = () => path.join(configDir(), 'uploads.json');

/** The key of a file: another file at the same path (size or time changed) is a new upload. */
export function fileKey(file: string): string {
  const stat = statSync(file);
  return `${path.resolve(file)}:${stat.size}:${Math.floor(stat.mtimeMs)}`;
}

export function sessionOf(key: string): { sessionId: string; type: string } | undefined {
  return readJson<UploadState>(statePath())?.[key];
}

export function rememberSession(key: string, sessionId: string, type: string): void {
  const state = readJson<UploadState>(statePath()) ?? {};
  state[key] = { sessionId, type, startedAt: new Date().toISOString() };
  writePrivateJson(statePath(), state);
}

export function forgetSession(key: string): void {
  const state = readJson<UploadState>(statePath()) ?? {};
  if (!(key in state)) return;
  delete state[key];
  writePrivateJson(statePath(), state);
}
