import { describe, expect, it } from 'vitest';
import { findStore } from '../../src/domains/catalog/stores.ts';
import {
  buildNewReleaseMessage,
  buildTakedownMessage,
  ERN_NAMESPACE,
  isoDuration,
  SENDER_DPID,
} from '../../src/domains/delivery/ddex.ts';
import { escapeXml } from '../../src/domains/delivery/xml.ts';
import { audio, input, SHA } from './ddex-fixtures.ts';
import { ernSchemaErrorsOf } from './ern-schema.ts';
import { walkXml } from './xml-walker.ts';

const ROOT = 'ern:NewReleaseMessage';
describe('DDEX ERN 4.3 NewReleaseMessage', () => {
  it('is well-formed XML in the ERN 4.3 namespace with the header, resources, releases and deals', async () => {
    const message = buildNewReleaseMessage(input());
    expect(await ernSchemaErrorsOf(message)).toEqual([]);
    expect(message.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).toBe(true);
    expect(message).toContain(`<${ROOT} xmlns:ern="${ERN_NAMESPACE}"`);
    expect(message).toContain('ReleaseProfileVersionId="Audio"');
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
    // The whole title in one string; the version split out as a SubTitle.
    expect(text('ResourceList/SoundRecording/DisplayTitleText')).toEqual([
      'Harbour Lines',
      'Paper Boats (Remix)',
    ]);
    expect(text('ResourceList/SoundRecording/DisplayTitle/SubTitle')).toEqual(['Remix']);
    expect(text('ResourceList/SoundRecording/Duration')).toEqual(['PT3M20S', 'PT1M35S']);
    expect(text('ResourceList/SoundRecording/DisplayArtistName')).toEqual([
      "Lena Marlow & Theo O'Brandt",
      "Lena Marlow & Theo O'Brandt",
    ]);
    expect(text('ResourceList/SoundRecording/ParentalWarningType')).toEqual(['NotExplicit', 'Explicit']);

    expect(text('ReleaseList/Release/ReleaseId/ICPN')).toEqual(['036000291452']);
    expect(text('ReleaseList/Release/DisplayTitleText')).toEqual(['Salt & <Smoke> "Live"']);
    expect(text('ReleaseList/Release/DisplayArtist/DisplayArtistRole')).toEqual(['MainArtist', 'Artist']);
    expect(text('ReleaseList/Release/Genre/GenreText')).toEqual(['Pop']);
    expect(text('ReleaseList/Release/ReleaseDate')).toEqual(['2026-02-06']);
    expect(text('ReleaseList/Release/ReleaseType')).toEqual(['Single']);
    expect(text('ReleaseList/Release/Duration')).toEqual(['PT4M55S']);
    expect(
      text('ReleaseList/Release/ResourceGroup/ResourceGroupContentItem/ReleaseResourceReference'),
    ).toEqual(['A1', 'A2']);
    expect(text('ReleaseList/Release/ResourceGroup/LinkedReleaseResourceReference')).toEqual(['A3']);
    // A Track Release is identified by a proprietary id (UPC + ISRC), never by the ISRC itself.
    expect(text('ReleaseList/TrackRelease/ReleaseId/ISRC')).toEqual([]);
    expect(text('ReleaseList/TrackRelease/ReleaseId/ProprietaryId')).toEqual([
      '036000291452_XXTRB2600001',
      '036000291452_XXTRB2600002',
    ]);
    expect(message).toContain(`<ProprietaryId Namespace="${SENDER_DPID}">036000291452_XXTRB2600001`);
    expect(text('ReleaseList/TrackRelease/Genre/GenreText')).toEqual(['Pop', 'Dance']);
    expect(text('PartyList/Party/PartyName/FullName')).toEqual([
      'Lena Marlow',
      "Theo O'Brandt",
      'Harbor Light Records',
    ]);

    // One ReleaseDeal for the main release and both track releases, with the streaming models.
    expect(text('DealList/ReleaseDeal/DealReleaseReference')).toEqual(['R0', 'R1', 'R2']);
    expect(text('DealList/ReleaseDeal/Deal/DealTerms/TerritoryCode')).toEqual(['Worldwide', 'Worldwide']);
    expect(text('DealList/ReleaseDeal/Deal/DealTerms/CommercialModelType')).toEqual([
      'SubscriptionModel',
      'AdvertisementSupportedModel',
    ]);
    expect(text('DealList/ReleaseDeal/Deal/DealTerms/ValidityPeriod/StartDate')).toEqual([
      '2026-02-06',
      '2026-02-06',
    ]);
    expect(text('DealList/ReleaseDeal/Deal/DealTerms/ValidityPeriod/EndDate')).toEqual([]);

    // Escaped in the raw text, never raw.
    expect(message).toContain('Salt &amp; &lt;Smoke&gt; &quot;Live&quot;');
    expect(message).toContain('Theo O&apos;Brandt');
  });

  it('names each resource file as the package lays it out, with its SHA-256 and size', async () => {
    const message = buildNewReleaseMessage(input());
    expect(await ernSchemaErrorsOf(message)).toEqual([]);
    const { texts } = walkXml(message);
    const file = (path: string) => texts.get(`${ROOT}/ResourceList/${path}`) ?? [];
    const audioFile = 'SoundRecording/SoundRecordingEdition/TechnicalDetails/DeliveryFile/File';
    expect(file(`${audioFile}/URI`)).toEqual([
      'resources/036000291452_01_001.flac',
      'resources/036000291452_01_002.flac',
    ]);
    expect(file(`${audioFile}/HashSum/Algorithm`)).toEqual(['SHA-256', 'SHA-256']);
    expect(file(`${audioFile}/HashSum/HashSumValue`)).toEqual([SHA(0), SHA(1)]);
    expect(file(`${audioFile}/FileSize`)).toEqual(['31337000', '31337001']);
    expect(file('Image/Type')).toEqual(['FrontCoverImage']);
    expect(file('Image/TechnicalDetails/File/URI')).toEqual(['resources/036000291452.png']);
    expect(file('Image/TechnicalDetails/File/HashSum/HashSumValue')).toEqual([SHA(99)]);
    expect(file('Image/TechnicalDetails/File/FileSize')).toEqual(['2400000']);
  });

  it('sends a one-track release as a Simple Audio Single, and EPs and albums under the Audio profile', async () => {
    const tracks = (count: number, seconds = 180) =>
      Array.from({ length: count }, (_, i) => ({
        position: i,
        title: `Song ${i + 1}`,
        explicit: false,
        payload: {},
        audio: audio(i, seconds),
      }));
    const shape = (count: number, seconds?: number) => {
      const message = buildNewReleaseMessage(
        input({
          tracks: tracks(count, seconds),
          isrcs: Array.from({ length: count }, (_, i) => `XXTRB26${String(i).padStart(5, '0')}`),
        }),
      );
      const { texts } = walkXml(message);
      return {
        message,
        profile: /ReleaseProfileVersionId="(\w+)"/.exec(message)?.[1],
        type: texts.get(`${ROOT}/ReleaseList/Release/ReleaseType`),
        trackReleases: texts.get(`${ROOT}/ReleaseList/TrackRelease/ReleaseReference`) ?? [],
        dealReleases: texts.get(`${ROOT}/DealList/ReleaseDeal/DealReleaseReference`),
      };
    };
    const single = shape(1);
    expect([single.profile, single.type, single.trackReleases, single.dealReleases]).toEqual([
      'SimpleAudioSingle',
      ['Single'],
      [],
      ['R0'],
    ]);
    expect(shape(3)).toMatchObject({ profile: 'Audio', type: ['Single'] });
    expect(shape(4)).toMatchObject({
      profile: 'Audio',
      type: ['EP'],
      trackReleases: ['R1', 'R2', 'R3', 'R4'],
    });
    expect(shape(2, 660)).toMatchObject({ profile: 'Audio', type: ['EP'] });
    expect(shape(7)).toMatchObject({ profile: 'Audio', type: ['Album'] });
    expect(shape(5, 400)).toMatchObject({ profile: 'Audio', type: ['Album'] });
    for (const count of [1, 4, 7]) expect(await ernSchemaErrorsOf(shape(count).message)).toEqual([]);
  });

  it('licenses download stores for permanent download and UGC stores with their rights-claim policy', async () => {
    const download = walkXml(buildNewReleaseMessage(input({ store: findStore(303)! }))).texts;
    expect(download.get(`${ROOT}/DealList/ReleaseDeal/Deal/DealTerms/UseType`)).toEqual([
      'PermanentDownload',
    ]);
    const policyOf = (storeId: number, ugcPolicy: string | null) => {
      const message = buildNewReleaseMessage(input({ store: findStore(storeId)!, ugcPolicy }));
      const { texts } = walkXml(message);
      const terms = (leaf: string) => texts.get(`${ROOT}/DealList/ReleaseDeal/Deal/DealTerms/${leaf}`);
      return {
        message,
        model: terms('CommercialModelType'),
        uses: terms('UseType'),
        policy: terms('RightsClaimPolicy/RightsClaimPolicyType'),
        releases: texts.get(`${ROOT}/DealList/ReleaseDeal/DealReleaseReference`),
      };
    };
    expect(policyOf(310, 'block')).toMatchObject({
      model: ['RightsClaimModel'],
      uses: ['UserMakeAvailableUserProvided'],
      policy: ['BlockAccess'],
      // Claims match recordings: the track releases carry them.
      releases: ['R1', 'R2'],
    });
    expect(policyOf(319, 'library_only')).toMatchObject({
      uses: ['UserMakeAvailableLabelProvided', 'UserMakeAvailableUserProvided'],
      policy: ['ReportUsage'],
    });
    expect(policyOf(307, 'track')).toMatchObject({
      uses: ['UserMakeAvailableUserProvided'],
      policy: ['ReportUsage'],
    });
    // No policy recorded: the store's default code.
    expect(policyOf(310, null)).toMatchObject({ policy: ['Monetize'] });
    for (const [storeId, code] of [
      [310, 'block'],
      [319, 'library_only'],
      [307, 'track'],
    ] as const)
      expect(await ernSchemaErrorsOf(policyOf(storeId, code).message)).toEqual([]);
  });

  it('a takedown repeats the release with every deal ending on the takedown day', async () => {
    const message = buildTakedownMessage({ ...input(), takenDownAt: new Date('2026-03-10T12:00:00Z') });
    expect(await ernSchemaErrorsOf(message)).toEqual([]);
    const { texts } = walkXml(message);
    const period = (leaf: string) =>
      texts.get(`${ROOT}/DealList/ReleaseDeal/Deal/DealTerms/ValidityPeriod/${leaf}`);
    expect(period('StartDate')).toEqual(['2026-02-06', '2026-02-06']);
    expect(period('EndDate')).toEqual(['2026-03-10', '2026-03-10']);
    // Taken down before its release date: the deals start and end that day.
    const early = buildTakedownMessage({ ...input(), takenDownAt: new Date('2026-01-20T12:00:00Z') });
    expect(
      walkXml(early).texts.get(`${ROOT}/DealList/ReleaseDeal/Deal/DealTerms/ValidityPeriod/StartDate`),
    ).toEqual(['2026-01-20', '2026-01-20']);
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
