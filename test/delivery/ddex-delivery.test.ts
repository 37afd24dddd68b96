import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sandboxOnly } from '../../src/domains/delivery/adapters/sandbox/sandbox-adapter.ts';
import { advanceDue } from '../../src/domains/delivery/advance-due.ts';
import { Delivery } from '../../src/domains/delivery/delivery.entity.ts';
import { loadContent, takedownMessageFor } from '../../src/domains/delivery/release-content.ts';
import { Release } from '../../src/domains/releases/release.entity.ts';
import { ManualClock } from '../../src/platform/clock.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { uploadAssets, validSubmission } from '../support/releases.ts';
import { ernSchemaErrors } from './ern-schema.ts';
import { walkXml } from './xml-walker.ts';

const ROOT = 'ern:NewReleaseMessage';
const FILE = `${ROOT}/ResourceList/SoundRecording/SoundRecordingEdition/TechnicalDetails/DeliveryFile/File`;

/** The bytes the platform serves for a fileUrl (a 302 to storage), and their SHA-256. */
async function storedBytesHash(baseUrl: string, fileUrl: string, token: string) {
  const redirect = await fetch(`${baseUrl}${fileUrl}`, {
    headers: { authorization: `Bearer ${token}` },
    redirect: 'manual',
  });
  const bytes = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
  return { sha256: createHash('sha256').update(bytes).digest('hex'), size: bytes.length };
}

describe('the ERN messages of a real submission', () => {
  const app = useTestApp({ SANDBOX_STEP_SECONDS: '300' });

  it('validate for every store it goes to, and name the uploaded files by their real hash and size', async () => {
    const account = await accountWithToken(app().em(), { credits: 20 });
    const assets = await uploadAssets(app().url, account);
    const body = validSubmission(assets, 4);
    body.release.distribution_store_ids = [301, 303, 310, 319, 322];
    const submitted = await request(app().url, 'POST', '/v1/releases', { token: account.token, body });
    expect(submitted.status).toBe(201);
    const { releaseId } = submitted.body;

    const clock = new ManualClock(new Date());
    clock.advance(300);
    await advanceDue(app().em(), clock, sandboxOnly({ stepSeconds: 300 }));
    const deliveries = await app()
      .em()
      .find(Delivery, { release: releaseId }, { orderBy: { storeId: 'asc' } });
    expect(deliveries.map((d) => d.storeId)).toEqual([301, 303, 310, 319, 322]);
    const messages = deliveries.map((d) => d.ddexMessage!);

    const em = app().em();
    const release = await em.findOneOrFail(Release, { id: releaseId });
    const content = await loadContent(em, release);
    const takedowns = deliveries.map((d) =>
      takedownMessageFor(content, d.storeId, d.ugcPolicy ?? null, clock.now()),
    );
    const errors = await ernSchemaErrors([...messages, ...takedowns]);
    expect(errors).toEqual(Array(10).fill([]));

    const audio = await storedBytesHash(app().url, assets.audioUrl, account.token);
    const cover = await storedBytesHash(app().url, assets.coverUrl, account.token);
    const upc = release.upc!;
    for (const message of messages) {
      const { texts } = walkXml(message);
      expect(message).toContain('ReleaseProfileVersionId="Audio"');
      expect(texts.get(`${FILE}/URI`)).toEqual([1, 2, 3, 4].map((n) => `resources/${upc}_01_00${n}.flac`));
      expect(texts.get(`${FILE}/HashSum/HashSumValue`)).toEqual(Array(4).fill(audio.sha256));
      expect(texts.get(`${FILE}/FileSize`)).toEqual(Array(4).fill(String(audio.size)));
      expect(texts.get(`${ROOT}/ResourceList/Image/TechnicalDetails/File/HashSum/HashSumValue`)).toEqual([
        cover.sha256,
      ]);
      expect(texts.get(`${ROOT}/ResourceList/Image/TechnicalDetails/File/URI`)).toEqual([
        `resources/${upc}.png`,
      ]);
    }
    // What the package step lays out: each path the messages name, with the stored file behind it.
    expect(content.files.map((f) => [f.path, f.sha256, f.size])).toEqual([
      ...[1, 2, 3, 4].map((n) => [`resources/${upc}_01_00${n}.flac`, audio.sha256, audio.size]),
      [`resources/${upc}.png`, cover.sha256, cover.size],
    ]);
  });
});
