import { describe, expect, it } from 'vitest';
import { Account } from '../../src/domains/accounts/account.entity.ts';
import { StoredFile } from '../../src/domains/uploads/stored-file.entity.ts';
import { useTestApp } from '../support/app.ts';
import { accountWithToken } from '../support/factories.ts';
import { request } from '../support/http.ts';
import { imageBytes } from '../support/media.ts';

describe('GET /v1/me', () => {
  const app = useTestApp();

  it('answers the profile with the documented field names and a signed avatar URL', async () => {
    const account = await accountWithToken(app().em());
    const before = await request(app().url, 'GET', '/v1/me', { token: account.token });
    expect(Object.keys(before.body.profile).sort()).toEqual(
      [
        'avatar_url',
        'created_at',
        'email',
        'first_name',
        'id',
        'is_admin',
        'is_insider',
        'is_patron',
        'last_name',
      ].sort(),
    );
    expect(before.body.profile.avatar_url).toBeNull();

    const upload = await request(app().url, 'POST', '/v1/files', {
      token: account.token,
      body: {
        type: 'coverArt',
        file_name: 'me.png',
        data_base64: (await imageBytes(3000, 3000)).toString('base64'),
      },
    });
    const em = app().em();
    const file = await em.findOneOrFail(StoredFile, { sha256: upload.body.sha256 });
    await em.nativeUpdate(Account, { id: account.accountId }, { avatarKey: file.storageKey });
    const after = await request(app().url, 'GET', '/v1/me', { token: account.token });
    const avatar = await fetch(after.body.profile.avatar_url);
    expect(avatar.status).toBe(200);
    expect(avatar.headers.get('content-type')).toBe('image/png');
  });
});
