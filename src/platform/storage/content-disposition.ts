/**
 * `attachment` with an ASCII `filename` fallback and the exact name as RFC 5987 `filename*` (RFC 6266).
 * The result is plain ASCII, safe as a header value whatever the name holds.
 */
export function contentDisposition(name: string): string {
  const fileName = name.toWellFormed();
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\%]/g, '_').trim() || 'download';
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
