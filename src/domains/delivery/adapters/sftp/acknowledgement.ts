/**
 * The store's `FtpAcknowledgementMessage` (the Release Delivery Choreography's acknowledgement of a
 * message file), read for what a delivery needs: its `FileStatus`, its `ErrorText`, and whether a
 * re-send is enough (`ManualCheckRequired` false) or someone has to look first.
 */
export interface Acknowledgement {
  fileStatus: string;
  errorText: string | null;
  /** The store asks for the same package again, no manual check needed. */
  resend: boolean;
}

export const FILE_OK = 'FileOK';

export class AcknowledgementShapeError extends Error {}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#([0-9]+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name]!);
}

/** The text of every element named `local` (any prefix), in order; an element with children is refused. */
function elements(xml: string, local: string): string[] {
  const pattern = new RegExp(
    `<(?:[A-Za-z_][\\w.-]*:)?${local}(?:\\s[^>]*)?>([^<]*)</(?:[A-Za-z_][\\w.-]*:)?${local}>`,
    'g',
  );
  return [...xml.matchAll(pattern)].map((match) => decodeEntities(match[1]!).trim());
}

/** Reads an acknowledgement; a file of another shape throws `AcknowledgementShapeError` saying why. */
export function parseAcknowledgement(xml: string): Acknowledgement {
  const body = xml
    .replace(/<\?xml[^>]*\?>/, '')
    .replace(/<!--[\s\S]*?-->/g, '')
    .trim();
  const root = /^<(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s>]/.exec(body)?.[1];
  if (root !== 'FtpAcknowledgementMessage') {
    throw new AcknowledgementShapeError(
      `expected an FtpAcknowledgementMessage, found ${root ? `<${root}>` : 'no XML element'}`,
    );
  }
  const statuses = elements(body, 'FileStatus');
  if (statuses.length !== 1 || !/^[A-Za-z]+$/.test(statuses[0]!)) {
    throw new AcknowledgementShapeError('expected exactly one FileStatus naming a status');
  }
  const errorText = elements(body, 'ErrorText')[0] || null;
  const manual = elements(body, 'ManualCheckRequired')[0];
  if (manual !== undefined && manual !== 'true' && manual !== 'false') {
    throw new AcknowledgementShapeError(`ManualCheckRequired must be true or false, not "${manual}"`);
  }
  const fileStatus = statuses[0]!;
  return { fileStatus, errorText, resend: fileStatus !== FILE_OK && manual === 'false' };
}
