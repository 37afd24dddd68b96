import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import type { Client, SFTPWrapper, Stats } from 'ssh2';
import { ConnectionLostError, PermissionDeniedError, SftpError } from './errors.ts';

/** SFTP status codes (draft-ietf-secsh-filexfer-02) the session tells apart. */
const NO_SUCH_FILE = 2;
const PERMISSION_DENIED = 3;
/** Writes in flight at once during an upload: enough to keep a long link busy. */
const WRITES_IN_FLIGHT = 16;
/**
 * The most one write request carries: a source's larger chunk is sent as several, so the requests on
 * the wire and the memory in flight (WRITES_IN_FLIGHT of them) do not depend on how the source reads.
 */
const WRITE_BYTES = 64 * 1024;
/** The largest file `readFile` reads (acknowledgements are a few kilobytes). */
const DEFAULT_READ_LIMIT = 1024 * 1024;

/** What an upload reads: a Readable, an async generator, an array of buffers. */
export type Chunks = AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string>;

export interface RemoteEntry {
  name: string;
  size: number;
  isDirectory: boolean;
  modifiedAt: Date;
}

export interface SessionSettings {
  server: string;
  username: string;
  root: string;
  operationMs: number;
}

/** The temporary name a file is written under before it is renamed into place: hidden, in the same directory. */
export function temporaryNameOf(path: string): string {
  return posix.join(posix.dirname(path), `.${posix.basename(path)}.part`);
}

interface Ssh2Error extends Error {
  code?: string | number;
}

/**
 * One SFTP session on an open connection. Every path is relative to the connection's root (`..` cannot
 * leave it). A request unanswered for `operationMs`, a dropped connection or a closed channel fail every
 * request in flight with ConnectionLostError, and later ones at once.
 */
export class SftpSession {
  private lostReason: string | null = null;
  private readonly waiting = new Set<(reason: string) => void>();

  private readonly client: Client;
  private readonly sftp: SFTPWrapper;
  private readonly settings: SessionSettings;

  constructor(client: Client, sftp: SFTPWrapper, settings: SessionSettings) {
    this.client = client;
    this.sftp = sftp;
    this.settings = settings;
    client.on('error', (error: Error) => this.drop(error.message));
    client.on('close', () => this.drop('the server closed the connection'));
    sftp.on('error', (error: Error) => this.drop(error.message));
    sftp.on('close', () => this.drop('the SFTP channel closed'));
  }

  /** The absolute remote path of a path relative to the root. */
  remotePath(path: string): string {
    const root = posix.normalize(this.settings.root || '/');
    const resolved = posix.join(root, posix.normalize(`/${path}`));
    return resolved.length > 1 ? resolved.replace(/\/+$/, '') : resolved;
  }

  /** Whether the connection is gone (then every request fails with ConnectionLostError). */
  get lost(): boolean {
    return this.lostReason !== null;
  }

  stat(path: string): Promise<RemoteEntry | null> {
    return this.statAbsolute(this.remotePath(path));
  }

  /** The file's size in bytes, or null when nothing has that name. */
  async size(path: string): Promise<number | null> {
    return (await this.stat(path))?.size ?? null;
  }

  async list(dir = '.'): Promise<RemoteEntry[]> {
    const remote = this.remotePath(dir);
    const entries = await this.request<{ filename: string; attrs: Stats }[]>('list', remote, (done) =>
      this.sftp.readdir(remote, done),
    );
    return entries
      .map((each) => entry(each.filename, each.attrs))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Makes the directory and any missing parent under the root (an existing one is fine). */
  async mkdirp(dir: string): Promise<void> {
    const target = this.remotePath(dir);
    const root = this.remotePath('.');
    const parts = posix.relative(root, target).split('/').filter(Boolean);
    let current = root;
    for (const part of parts) {
      current = posix.join(current, part);
      const existing = await this.statAbsolute(current);
      if (existing?.isDirectory) continue;
      if (existing)
        throw new SftpError(
          'remote_failure',
          `${current} exists on ${this.settings.server} and is not a directory.`,
        );
      const at = current;
      try {
        await this.request<void>('create the directory', at, (done) => this.sftp.mkdir(at, done));
      } catch (error) {
        // Made meanwhile by someone else: what matters is that it exists.
        if (!(await this.statAbsolute(at))?.isDirectory) throw error;
      }
    }
  }

  /** Reads a small file whole (an acknowledgement); refuses one larger than `maxBytes`. */
  async readFile(path: string, maxBytes = DEFAULT_READ_LIMIT): Promise<Buffer> {
    const remote = this.remotePath(path);
    const stats = await this.request<Stats>('read', remote, (done) => this.sftp.stat(remote, done));
    if (stats.size > maxBytes) {
      throw new SftpError(
        'remote_failure',
        `${remote} has ${stats.size} bytes, more than the ${maxBytes} read here.`,
      );
    }
    const handle = await this.request<Buffer>('read', remote, (done) => this.sftp.open(remote, 'r', done));
    const chunks: Buffer[] = [];
    let total = 0;
    try {
      for (;;) {
        const buffer = Buffer.alloc(Math.min(32 * 1024, maxBytes + 1 - total));
        // At the end of the file, ssh2 answers 0 bytes.
        const read = await this.request<number>('read', remote, (done) =>
          this.sftp.read(handle, buffer, 0, buffer.length, total, (error, bytes) => done(error, bytes)),
        );
        if (read === 0) break;
        chunks.push(buffer.subarray(0, read));
        total += read;
        if (total > maxBytes) {
          throw new SftpError('remote_failure', `${remote} grew past the ${maxBytes} bytes read here.`);
        }
      }
    } finally {
      await this.closeHandle(handle, remote);
    }
    return Buffer.concat(chunks);
  }

  /**
   * Writes `source` to a temporary name beside `path` (`.<name>.part`), then renames it into place, so
   * the final name never holds a partial file. Resolves with the bytes sent and their SHA-256 (hex). A failure (the source's, the server's, a dropped
   * connection) rejects; the temporary file is removed when the connection still allows it.
   */
  async upload(path: string, source: Chunks): Promise<{ bytes: number; sha256: string }> {
    const final = this.remotePath(path);
    const temporary = temporaryNameOf(final);
    const handle = await this.request<Buffer>('write', temporary, (done) =>
      this.sftp.open(temporary, 'w', done),
    );
    let position = 0;
    const hash = createHash('sha256');
    let failure: unknown = null;
    const inFlight = new Set<Promise<void>>();
    let open = true;
    try {
      for await (const chunk of source) {
        if (failure) break;
        const bytes =
          typeof chunk === 'string'
            ? Buffer.from(chunk)
            : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        hash.update(bytes);
        for (let offset = 0; offset < bytes.length && !failure; offset += WRITE_BYTES) {
          const length = Math.min(WRITE_BYTES, bytes.length - offset);
          const at = position;
          position += length;
          const write: Promise<void> = this.request<void>('write', temporary, (done) =>
            this.sftp.write(handle, bytes, offset, length, at, done),
          )
            .catch((error: unknown) => {
              failure ??= error;
            })
            .finally(() => inFlight.delete(write));
          inFlight.add(write);
          if (inFlight.size >= WRITES_IN_FLIGHT) await Promise.race(inFlight);
        }
      }
      await Promise.all(inFlight);
      if (failure) throw failure;
      await this.fsync(handle, temporary);
      open = false;
      await this.request<void>('write', temporary, (done) => this.sftp.close(handle, done));
      await this.rename(temporary, final, true);
      return { bytes: position, sha256: hash.digest('hex') };
    } catch (error) {
      await Promise.all(inFlight);
      if (open) await this.closeHandle(handle, temporary);
      if (!this.lost) await this.deleteAbsolute(temporary).catch(() => {});
      throw this.lost && !(error instanceof ConnectionLostError) ? this.lostError('write', temporary) : error;
    }
  }

  /**
   * Uploads unless `path` already holds a file of `size` bytes (a finished upload of an earlier attempt:
   * only complete files ever get a final name). `open` is called only when the file is sent.
   */
  async uploadUnlessComplete(
    path: string,
    size: number,
    open: () => Chunks | Promise<Chunks>,
  ): Promise<'skipped' | 'uploaded'> {
    if ((await this.size(path)) === size) return 'skipped';
    const { bytes } = await this.upload(path, await open());
    if (bytes !== size) {
      throw new SftpError(
        'remote_failure',
        `${this.remotePath(path)}: sent ${bytes} bytes, expected ${size}.`,
      );
    }
    return 'uploaded';
  }

  /** Renames `from` to `to` (both relative to the root), replacing a file already at `to`. */
  async rename(from: string, to: string, absolute = false): Promise<void> {
    const source = absolute ? from : this.remotePath(from);
    const target = absolute ? to : this.remotePath(to);
    let unsupported = false;
    await this.request<void>('rename', source, (done) => {
      try {
        this.sftp.ext_openssh_rename(source, target, done);
      } catch {
        unsupported = true; // the server lacks posix-rename@openssh.com: nothing was sent
        done(null);
      }
    });
    if (!unsupported) return;
    // Plain SFTP rename refuses an existing target.
    if (await this.statAbsolute(target)) await this.deleteAbsolute(target);
    await this.request<void>('rename', source, (done) => this.sftp.rename(source, target, done));
  }

  async delete(path: string): Promise<void> {
    await this.deleteAbsolute(this.remotePath(path));
  }

  /** Ends the session and its connection. */
  async close(): Promise<void> {
    if (this.lost) return;
    this.lostReason = 'the session was closed';
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.client.destroy();
        resolve();
      }, 2_000);
      this.client.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      this.sftp.end();
      this.client.end();
    });
  }

  /** Fails every request in flight and ends the connection. */
  private drop(reason: string): void {
    if (this.lostReason !== null) return;
    this.lostReason = reason;
    for (const fail of this.waiting) fail(reason);
    this.waiting.clear();
    this.client.destroy();
  }

  private lostError(action: string, path: string): ConnectionLostError {
    return new ConnectionLostError(this.settings.server, action, path, this.lostReason ?? 'no answer');
  }

  private request<T>(
    action: string,
    path: string,
    send: (done: (error?: Error | null, value?: T) => void) => void,
  ): Promise<T> {
    if (this.lost) return Promise.reject(this.lostError(action, path));
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const onLost = () => finish(null, undefined, true);
      const timer = setTimeout(
        () => this.drop(`no answer within ${this.settings.operationMs / 1000} s`),
        this.settings.operationMs,
      );
      const finish = (error: Ssh2Error | null | undefined, value: T | undefined, lost = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.waiting.delete(onLost);
        if (lost || (error && this.lost)) reject(this.lostError(action, path));
        else if (error) reject(this.failure(error, action, path));
        else resolve(value as T);
      };
      this.waiting.add(onLost);
      try {
        send((error, value) => finish(error, value));
      } catch (error) {
        finish(error as Error, undefined);
      }
    });
  }

  private failure(error: Ssh2Error, action: string, path: string): SftpError {
    if (error.code === PERMISSION_DENIED) {
      return new PermissionDeniedError(this.settings.server, this.settings.username, action, path, error);
    }
    if (error.code === NO_SUCH_FILE) {
      return new SftpError('not_found', `${path} does not exist on ${this.settings.server}.`, {
        cause: error,
      });
    }
    if (/no response from server|not connected|channel/i.test(error.message)) {
      return new ConnectionLostError(this.settings.server, action, path, error.message, error);
    }
    return new SftpError(
      'remote_failure',
      `The SFTP server at ${this.settings.server} could not ${action} ${path}: ${error.message}.`,
      { cause: error },
    );
  }

  private async statAbsolute(remote: string): Promise<RemoteEntry | null> {
    try {
      const stats = await this.request<Stats>('read', remote, (done) => this.sftp.stat(remote, done));
      return entry(posix.basename(remote), stats);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  private async deleteAbsolute(remote: string): Promise<void> {
    await this.request<void>('delete', remote, (done) => this.sftp.unlink(remote, done));
  }

  private async fsync(handle: Buffer, remote: string): Promise<void> {
    await this.request<void>('write', remote, (done) => {
      try {
        this.sftp.ext_openssh_fsync(handle, done);
      } catch {
        done(null); // the server lacks fsync@openssh.com: its close is all there is
      }
    });
  }

  private async closeHandle(handle: Buffer, remote: string): Promise<void> {
    if (this.lost) return;
    await this.request<void>('close', remote, (done) => this.sftp.close(handle, done)).catch(() => {});
  }
}

function entry(name: string, stats: Stats): RemoteEntry {
  return {
    name,
    size: stats.size,
    isDirectory: stats.isDirectory(),
    modifiedAt: new Date(stats.mtime * 1000),
  };
}

function isNotFound(error: unknown): boolean {
  return error instanceof SftpError && error.kind === 'not_found';
}
