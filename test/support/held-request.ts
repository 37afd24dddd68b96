import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface HeldRequest {
  /** Resolves once the head and the first part of the body are written to the socket. */
  sent: Promise<void>;
  /** Sends the rest of the body in `parts` slices, `everyMs` apart, then ends the request. */
  finish(options?: { parts?: number; everyMs?: number }): void;
  /** The complete answer; rejects when the connection is cut before it. */
  answer: Promise<Answer>;
}

/**
 * A request whose body arrives in two stages: its head and the first `firstBytes` bytes now, the rest
 * when the test calls `finish`. The server has the request in flight in between. `chunked` sends the
 * body without a length (Transfer-Encoding: chunked), as a streamed upload does.
 */
export function holdRequest(
  baseUrl: string,
  path: string,
  options: {
    agent: http.Agent;
    body: Buffer;
    headers: Record<string, string>;
    firstBytes?: number;
    chunked?: boolean;
  },
): HeldRequest {
  const { body, chunked = false } = options;
  const firstBytes = Math.min(options.firstBytes ?? Math.floor(body.length / 2), body.length - 1);
  const headers: Record<string, string> = { ...options.headers };
  if (!chunked) headers['content-length'] = String(body.length);
  const req = http.request(`${baseUrl}${path}`, { method: 'POST', agent: options.agent, headers });
  const answer = new Promise<Answer>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.once('error', reject);
      res.once('aborted', () => reject(new Error('answer cut short')));
      res.once('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
  });
  answer.catch(() => {}); // read by the test; a cut is an outcome it asserts on
  if (chunked) req.flushHeaders();
  const sent = new Promise<void>((resolve, reject) => {
    req.write(body.subarray(0, firstBytes), (error) => (error ? reject(error) : resolve()));
  });
  sent.catch(() => {});
  return {
    sent,
    answer,
    finish({ parts = 1, everyMs = 0 } = {}) {
      const rest = body.subarray(firstBytes);
      const size = Math.ceil(rest.length / parts);
      let at = 0;
      const next = () => {
        if (req.destroyed) return;
        const slice = rest.subarray(at, at + size);
        at += size;
        if (at >= rest.length) req.end(slice);
        else {
          req.write(slice);
          setTimeout(next, everyMs);
        }
      };
      next();
    },
  };
}

/** A multipart/form-data body of text fields and one file part. */
export function multipartBody(
  fields: Record<string, string>,
  file: { field: string; name: string; contentType: string; bytes: Buffer },
): { body: Buffer; contentType: string } {
  const boundary = `----held${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\n` +
        `Content-Type: ${file.contentType}\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
