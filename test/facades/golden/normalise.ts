/**
 * What varies between runs in a response, replaced by placeholders so that everything else can be compared
 * byte for byte: ids (numbered by first appearance, so equal ids stay equal), times, dates, the server's
 * base URL, tokens and secrets, URL signatures, random file-name suffixes, assigned UPCs and ISRCs, the
 * uptime and webhook latencies.
 */
export function createNormaliser(baseUrl: string) {
  const ids = new Map<string, number>();
  const id = (uuid: string) => {
    const key = uuid.toLowerCase();
    if (!ids.has(key)) ids.set(key, ids.size + 1);
    return `<uuid:${ids.get(key)}>`;
  };
  return (text: string): string =>
    text
      .replaceAll(baseUrl, '<base>')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, id)
      .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
      .replace(/(?<![\d-])20\d{2}-\d{2}-\d{2}(?![\d-])/g, '<date>')
      .replace(/(?<=(pline|cline)_year\\?":\\?")\d{4}/g, '<year>')
      .replace(/svc_[a-z]+_[A-Za-z0-9_-]{8,}/g, (token) => `<token:${token.split('_')[1]}>`)
      .replace(/whsec_[A-Za-z0-9+/_-]+=*/g, '<secret>')
      .replace(/(cs|pi|pm)_sandbox_[A-Za-z0-9_-]+/g, '<$1_sandbox>')
      .replace(/(expires|signature|sig|exp)=[A-Za-z0-9_%.-]+/g, '$1=<signed>')
      .replace(/("uptimeSeconds":)\d+/g, '$1<n>')
      .replace(/("latency_ms":)\d+/g, '$1<n>')
      // Seconds until a spent rate limit's points come back tick with the clock.
      .replace(/(reset_seconds\\?":)\d+/g, '$1<n>')
      // Identifiers assigned at submission (UPC, ISRC) are drawn at random within the platform's ranges.
      .replace(/(?<=upc\\?":\\?"|UPC )\d{12,13}/g, '<upc>')
      .replace(/(?<=isrc\\?":\\?"|ISRC )[A-Z]{2}[A-Z0-9]{3}\d{7}/g, '<isrc>')
      // Stored file names carry a random suffix that keeps names unique per account.
      .replace(/(\/api\/files\/[a-z-]+\/<uuid:\d+>\/[^"\\/?]*?)-[0-9a-f]{8}(\.[a-z0-9]+)/g, '$1-<suffix>$2')
      // The same names in a cover-art result: `fileName` and the object `key` (`<user_id>/<name>`).
      .replace(/("(?:fileName|key)\\?":\\?"(?:<uuid:\d+>\/)?[^"\\/]*?)-[0-9a-f]{8}(\.png)/g, '$1-<suffix>$2');
}
