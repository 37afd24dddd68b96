import { describe, expect, it } from 'vitest';
import { formatSftpUrl, parseSftpUrl } from '../../src/domains/store-connections/sftp-url.ts';
import {
  catalogStore,
  checkChoreography,
  checkDpid,
  checkHostKey,
  checkRecipientName,
} from '../../src/domains/store-connections/validation.ts';
import { AppError } from '../../src/platform/errors.ts';

const refusal = (run: () => unknown): AppError => {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return error as AppError;
  }
  throw new Error('expected a refusal');
};

describe('the SFTP URL, parsed strictly', () => {
  it('reads user, host, port and root, and prints them back', () => {
    expect(parseSftpUrl('sftp://tributary@SFTP.Store.example:2222/incoming/ddex/')).toEqual({
      username: 'tributary',
      host: 'sftp.store.example',
      port: 2222,
      root: '/incoming/ddex',
    });
    expect(parseSftpUrl('sftp://u@192.0.2.10')).toEqual({
      username: 'u',
      host: '192.0.2.10',
      port: 22,
      root: '/',
    });
    const ipv6 = parseSftpUrl('sftp://u%40label@[2001:db8::1]:22/My%20Dir');
    expect(ipv6).toEqual({ username: 'u@label', host: '2001:db8::1', port: 22, root: '/My Dir' });
    expect(formatSftpUrl(ipv6)).toBe('sftp://u%40label@[2001:db8::1]:22/My%20Dir');
  });

  it.each([
    ['ftp://u@h.example/x', 'must start with sftp://'],
    ['sftp://u:secret@h.example:22/x', 'must not hold a password (give it with --password-env)'],
    ['sftp://h.example:22/x', 'must name the user'],
    ['sftp://u@h.example:22/a/../b', 'has a root with an empty, "." or ".." segment'],
    ['sftp://u@h.example:22/a/%2E%2E/b', 'has a root with an empty, "." or ".." segment'],
    ['sftp://u@h.example:22//b', 'has a root with an empty, "." or ".." segment'],
    ['sftp://u@h.example:22/a%00b', 'has a root with a control character or a backslash'],
    ['sftp://u@h.example:22/x?y=1', 'must have no query or fragment'],
    ['sftp://u@h.example:22/x#y', 'must have no query or fragment'],
    ['sftp://u@bad_host!:22/x', 'has a host "bad_host!" that is neither a host name nor an IP address'],
    ['sftp://u@h.example:0/x', 'has a port outside 1..65535'],
    ['sftp://u@h.example:99999/x', 'is not a URL'],
    ['sftp://us er@h.example/x', 'has a user name "us er" that is not 1 to 100 letters, digits or . _ @ + -'],
  ])('refuses %s', (url, problem) => {
    const error = refusal(() => parseSftpUrl(url));
    expect(error.code).toBe('invalid_sftp_url');
    expect(error.message).toContain(`--sftp ${problem}`);
    expect(error.message).toContain('expected sftp://<user>@<host>:<port>/<root>');
    expect(error.message).not.toContain('secret');
  });
});

describe('the other fields', () => {
  it('takes a store by id or alias, and refuses one the catalog lacks', () => {
    expect(catalogStore('301').name).toBe('Spotify');
    expect(catalogStore('apple-music').storeId).toBe(302);
    expect(refusal(() => catalogStore('99999'))).toMatchObject({
      code: 'unknown_store',
      message: 'No store "99999" in the catalog: give a store id or alias from GET /v1/distribution-stores.',
    });
  });

  it('takes the host key as OpenSSH prints it, with or without padding', () => {
    const key = 'SHA256:+X09kkb5YumQET+bkuVYAuHgKFxLASWB8Apc9GYCKcI';
    expect(checkHostKey(key)).toBe(key);
    expect(checkHostKey(` ${key}= `)).toBe(key);
    for (const bad of ['MD5:aa:bb', 'aa:bb:cc', 'SHA256:short', `sha256:${key.slice(7)}`]) {
      expect(refusal(() => checkHostKey(bad)).code).toBe('invalid_host_key');
    }
  });

  it('takes a DDEX party id: PADPIDA and 11 letters or digits', () => {
    expect(checkDpid('PADPIDA2014120301U')).toBe('PADPIDA2014120301U');
    for (const bad of ['PADPIDA123', 'PADPIDA2014120301UX', 'XADPIDA2014120301U', 'PADPIDA2014-20301U']) {
      expect(refusal(() => checkDpid(bad)).code).toBe('invalid_dpid');
    }
  });

  it('takes a recipient name and a choreography', () => {
    expect(checkRecipientName('  The Store ')).toBe('The Store');
    expect(() => checkRecipientName(' ')).toThrow('--recipient-name');
    expect(() => checkRecipientName('a\nb')).toThrow('--recipient-name');
    expect(checkChoreography(undefined)).toBe('release');
    expect(checkChoreography('batch')).toBe('batch');
    expect(() => checkChoreography('stream')).toThrow(
      '--choreography must be release or batch (got "stream").',
    );
  });
});
