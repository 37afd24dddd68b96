/** What an upload reads from: a file path (Node), a Blob or File, or bytes in memory. */
export type UploadSource = string | Blob | Uint8Array | ArrayBuffer;

/** Bytes read by range, so a file of gigabytes is never held whole in memory. */
export interface ByteSource {
  size: number;
  /** The file's own name, when the source has one (a path's base name, a File's name). */
  name: string | undefined;
  read(start: number, end: number): Promise<Uint8Array>;
  close(): Promise<void>;
}

async function fileSource(file: string): Promise<ByteSource> {
  // Imported here only, so the rest of the client runs where node:fs does not exist.
  const [{ open }, { basename }] = await Promise.all([import('node:fs/promises'), import('node:path')]);
  const handle = await open(file, 'r');
  const { size } = await handle.stat();
  return {
    size,
    name: basename(file),
    read: async (start, end) => {
      const buffer = new Uint8Array(end - start);
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, start + filled);
        if (bytesRead === 0) throw new Error(`${file} ended at ${start + filled} bytes; it had ${size}.`);
        filled += bytesRead;
      }
      return buffer;
    },
    close: () => handle.close(),
  };
}

export async function openSource(source: UploadSource): Promise<ByteSource> {
  if (typeof source === 'string') return fileSource(source);
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    return {
      size: source.size,
      name: 'name' in source && typeof source.name === 'string' ? source.name : undefined,
      read: async (start, end) => new Uint8Array(await source.slice(start, end).arrayBuffer()),
      close: async () => {},
    };
  }
  const bytes = source instanceof Uint8Array ? source : new Uint8Array(source as ArrayBuffer);
  return {
    size: bytes.byteLength,
    name: undefined,
    read: async (start, end) => bytes.subarray(start, end),
    close: async () => {},
  };
}
