import { describe, expect, it } from 'vitest';
import { findStore } from '../../src/domains/catalog/stores.ts';
import {
  buildNewReleaseMessage,
  ERN_NAMESPACE,
  isoDuration,
  type NewReleaseMessageInput,
} from '../../src/domains/delivery/ddex.ts';
import { escapeXml } from '../../src/domains/delivery/xml.ts';
import { walkXml } from './xml-walker.ts';

const ROOT = 'ern:NewReleaseMessage';

function input(overrides: Partial<NewReleaseMessageInput> = {}): NewReleaseMessageInput {
  return {
    release: {
      id: '6f1c1e7e-3d3b-4a55-9f0c-0a4b2f6f4d21',
      title: 'Salt & <Smoke> "Live"',
      primaryArtistName: 'Lena Marlow',
      payload: {
        release: {
          title: 'Salt & <Smoke> "Live"',
          primary_artist_name: 'Lena Marlow',
          primary_artists: [{ name: 'Lena Marlow' }, { name: "Theo O'Brandt" }],
          genre: 'Pop',
          sub_genre: 'Indie Pop',
          release_date: '2026-02-06',
          label: 'Harbor Light Records',
          pline_year: '2026',
          pline_owner: 'Harbor Light Records',
          language_and_script_code: 'en-Latn',
        },
      },
    },
    tracks: [
      { position: 0, title: 'Harbour Lines', titleVersion: null, explicit: false, payload: {} },
      {
        position: 1,
        title: 'Paper Boats',
        titleVersion: 'Remix',
        explicit: true,
        payload: { genre: 'Dance' },
      },
    ],
    store: findStore(301)!,
    upc: '036000291452',
    isrcs: ['XXTRB2600001', 'XXTRB2600002'],
    durations: [200.4, null],
    messageId: 'msg-1',
    createdAt: new Date('2026-01-05T09:00:00.000Z'),
    ugcPolicy: null,
    ...overrides,
  };
}

describe('DDEX ERN 4.3 NewReleaseMessage', () => {
  it('is well-formed XML in the ERN 4.3 namespace with the header, resources, releases and deals', () => {
    const message = buildNewReleaseMessage(input());
    expect(message.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(message).toContain(`<${ROOT} xmlns:ern="${ERN_NAMESPACE}"`);
    const { paths, texts } = walkXml(message);
    const text = (path: string) => texts.get(`${ROOT}/${path}`) ?? [];

    expect(text('MessageHeader/MessageId')).toEqual(['msg-1']);
    expect(text('MessageHeader/MessageRecipient/PartyName/FullName')).toEqual(['Spotify']);
    expect(text('MessageHeader/MessageCreatedDateTime')).toEqual(['2026-01-05T09:00:00.000Z']);

    expect(paths.filter((p) => p === `${ROOT}/ResourceList/SoundRecording`)).toHaveLength(2);
    expect(text('ResourceList/SoundRecording/SoundRecordingEdition/ResourceId/ISRC')).toEqual([
      'XXTRB2600001',
      'XXTRB2600002',
    ]);
    expect(text('ResourceList/SoundRecording/DisplayTitleText')).toEqual(['Harbour Lines', 'Paper Boats']);
    expect(text('ResourceList/SoundRecording/DisplayTitle/SubTitle')).toEqual(['Remix']);
    expect(text('ResourceList/SoundRecording/Duration')).toEqual(['PT3M20S']); // unknown for track 2
    expect(text('ResourceList/SoundRecording/DisplayArtistName')).toEqual(['Lena Marlow', 'Lena Marlow']);
    expect(text('ResourceList/SoundRecording/ParentalWarningType')).toEqual(['NotExplicit', 'Explicit']);

    expect(text('ReleaseList/Release/ReleaseId/ICPN')).toEqual(['036000291452']);
    expect(text('ReleaseList/Release/DisplayTitleText')).toEqual(['Salt & <Smoke> "Live"']);
    expect(text('ReleaseList/Release/DisplayArtistName')).toEqual(['Lena Marlow']);
    expect(text('ReleaseList/Release/Genre/GenreText')).toEqual(['Pop']);
    expect(text('ReleaseList/Release/ReleaseDate')).toEqual(['2026-02-06']);
    expect(text('ReleaseList/Release/ReleaseType')).toEqual(['Single']);
    expect(
      text('ReleaseList/Release/ResourceGroup/ResourceGroupContentItem/ReleaseResourceReference'),
    ).toEqual(['A1', 'A2']);
    expect(text('ReleaseList/TrackRelease/ReleaseId/ISRC')).toEqual(['XXTRB2600001', 'XXTRB2600002']);
    expect(text('ReleaseList/TrackRelease/Genre/GenreText')).toEqual(['Pop', 'Dance']);
    expect(text('PartyList/Party/PartyName/FullName')).toEqual([
      'Lena Marlow',
      "Theo O'Brandt",
      'Harbor Light Records',
    ]);

    // A deal per release (main + 2 tracks), each with the streaming models, worldwide.
    expect(text('DealList/ReleaseDeal/DealReleaseReference')).toEqual(['R0', 'R1', 'R2']);
    expect(text('DealList/ReleaseDeal/Deal/DealTerms/TerritoryCode')).toEqual(Array(6).fill('Worldwide'));
    expect(new Set(text('DealList/ReleaseDeal/Deal/DealTerms/CommercialModelType'))).toEqual(
      new Set(['SubscriptionModel', 'AdvertisementSupportedModel']),
    );
    expect(text('DealList/ReleaseDeal/Deal/DealTerms/ValidityPeriod/StartDate')[0]).toBe('2026-02-06');

    // Escaped in the raw text, never raw.
    expect(message).toContain('Salt &amp; &lt;Smoke&gt; &quot;Live&quot;');
    expect(message).toContain('Theo O&apos;Brandt');
  });

  it('licenses download stores for permanent download and UGC stores with their rights-claim policy', () => {
    const download = walkXml(buildNewReleaseMessage(input({ store: findStore(303)! }))).texts;
    expect(new Set(download.get(`${ROOT}/DealList/ReleaseDeal/Deal/DealTerms/UseType`))).toEqual(
      new Set(['PermanentDownload']),
    );
    const ugc = buildNewReleaseMessage(input({ store: findStore(310)!, ugcPolicy: 'block' }));
    const { texts } = walkXml(ugc);
    expect(new Set(texts.get(`${ROOT}/DealList/ReleaseDeal/Deal/DealTerms/CommercialModelType`))).toEqual(
      new Set(['RightsClaimModel']),
    );
    expect(
      new Set(
        texts.get(`${ROOT}/DealList/ReleaseDeal/Deal/DealTerms/RightsClaimPolicy/RightsClaimPolicyType`),
      ),
    ).toEqual(new Set(['BlockAccess']));
    const library = buildNewReleaseMessage(input({ store: findStore(319)!, ugcPolicy: 'library_only' }));
    expect(library).toContain('UserDefinedValue="library_only"');
    walkXml(library);
  });

  it('the walker itself rejects malformed documents', () => {
    expect(() => walkXml('<a><b></a></b>')).toThrow();
    expect(() => walkXml('<a>x & y</a>')).toThrow();
    expect(() => walkXml('<a><b></b>')).toThrow();
    expect(() => walkXml('<a/><b/>')).toThrow();
    expect(walkXml('<a x="1"><b/>t</a>').paths).toEqual(['a', 'a/b']);
  });

  it('escapes text and formats durations', () => {
    expect(escapeXml(`a&b<c>"d"'e'\u0001`)).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&apos;e&apos;');
    expect(isoDuration(200.4)).toBe('PT3M20S');
    expect(isoDuration(3600)).toBe('PT1H');
    expect(isoDuration(0)).toBe('PT0S');
  });
});
