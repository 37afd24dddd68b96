import { describe, expect, it } from 'vitest';
import {
  AcknowledgementShapeError,
  parseAcknowledgement,
} from '../../src/domains/delivery/adapters/sftp/acknowledgement.ts';

const ack = (body: string, root = 'ernc:FtpAcknowledgementMessage') =>
  `<?xml version="1.0"?>\n<!-- from the store -->\n<${root} xmlns:ernc="http://ddex.net/xml/ern-c/15">${body}</${root}>`;

describe('reading a store’s FtpAcknowledgementMessage', () => {
  it('reads FileOK, an error with its text (entities decoded), and whether a re-send is asked for', () => {
    expect(parseAcknowledgement(ack('<FileStatus>FileOK</FileStatus>'))).toEqual({
      fileStatus: 'FileOK',
      errorText: null,
      resend: false,
    });
    expect(
      parseAcknowledgement(
        ack(
          '<FileStatus>ResourceCorrupt</FileStatus><ErrorText>A1 &amp; A2 &lt;bad&gt;</ErrorText>' +
            '<ManualCheckRequired>false</ManualCheckRequired>',
        ),
      ),
    ).toEqual({ fileStatus: 'ResourceCorrupt', errorText: 'A1 & A2 <bad>', resend: true });
    expect(
      parseAcknowledgement(
        ack(
          '<ernc:FileStatus>MetadataMissing</ernc:FileStatus><ManualCheckRequired>true</ManualCheckRequired>',
        ),
      ),
    ).toEqual({ fileStatus: 'MetadataMissing', errorText: null, resend: false });
  });

  it('refuses other shapes, saying what is wrong', () => {
    const refused = (xml: string) => {
      try {
        parseAcknowledgement(xml);
        return null;
      } catch (error) {
        expect(error).toBeInstanceOf(AcknowledgementShapeError);
        return (error as Error).message;
      }
    };
    expect(refused(ack('<FileStatus>FileOK</FileStatus>', 'NewReleaseMessage'))).toBe(
      'expected an FtpAcknowledgementMessage, found <NewReleaseMessage>',
    );
    expect(refused('not xml')).toBe('expected an FtpAcknowledgementMessage, found no XML element');
    expect(refused(ack(''))).toBe('expected exactly one FileStatus naming a status');
    expect(refused(ack('<FileStatus>FileOK</FileStatus><FileStatus>FileOK</FileStatus>'))).toBe(
      'expected exactly one FileStatus naming a status',
    );
    expect(
      refused(ack('<FileStatus>FileOK</FileStatus><ManualCheckRequired>maybe</ManualCheckRequired>')),
    ).toBe('ManualCheckRequired must be true or false, not "maybe"');
  });
});
