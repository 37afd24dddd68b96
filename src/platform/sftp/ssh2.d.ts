/** The part of `ssh2` (a CommonJS package without its own types) the SFTP transport uses. */
declare module 'ssh2' {
  import type { EventEmitter } from 'node:events';

  type Done = (err?: Error | null) => void;
  type Callback<T> = (err: Error | null | undefined, result: T) => void;

  interface ConnectConfig {
    host: string;
    port: number;
    username: string;
    password?: string;
    privateKey?: string | Buffer;
    /** Called with the server's raw public host key during key exchange, before authentication. */
    hostVerifier?: (key: Buffer) => boolean;
    readyTimeout?: number;
    keepaliveInterval?: number;
    keepaliveCountMax?: number;
    tryKeyboard?: boolean;
  }

  interface Stats {
    mode: number;
    size: number;
    mtime: number;
    isDirectory(): boolean;
    isFile(): boolean;
  }

  interface FileEntry {
    filename: string;
    attrs: Stats;
  }

  interface SFTPWrapper extends EventEmitter {
    open(path: string, flags: string, cb: Callback<Buffer>): void;
    close(handle: Buffer, cb: Done): void;
    write(handle: Buffer, buffer: Buffer, offset: number, length: number, position: number, cb: Done): void;
    read(
      handle: Buffer,
      buffer: Buffer,
      offset: number,
      length: number,
      position: number,
      cb: (err: Error | null | undefined, bytesRead: number) => void,
    ): void;
    stat(path: string, cb: Callback<Stats>): void;
    mkdir(path: string, cb: Done): void;
    readdir(path: string, cb: Callback<FileEntry[]>): void;
    rename(from: string, to: string, cb: Done): void;
    unlink(path: string, cb: Done): void;
    /** OpenSSH's posix-rename: replaces the target. Throws at once when the server lacks it. */
    ext_openssh_rename(from: string, to: string, cb: Done): void;
    /** OpenSSH's fsync. Throws at once when the server lacks it. */
    ext_openssh_fsync(handle: Buffer, cb: Done): void;
    end(): void;
  }

  class Client extends EventEmitter {
    connect(config: ConnectConfig): this;
    sftp(cb: Callback<SFTPWrapper>): void;
    end(): this;
    destroy(): this;
    setNoDelay(noDelay: boolean): void;
  }

  interface ParsedKey {
    type: string;
    isPrivateKey(): boolean;
  }

  const ssh2: {
    Client: typeof Client;
    utils: { parseKey(data: string | Buffer, passphrase?: string): ParsedKey | ParsedKey[] | Error };
  };

  export type { ConnectConfig, FileEntry, SFTPWrapper, Stats };
  export { Client };
  export default ssh2;
}
