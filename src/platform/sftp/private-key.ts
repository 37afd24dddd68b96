import ssh2 from 'ssh2';

/**
 * Why a private key (the text of its file) cannot be used to log in, or null when it can: the formats
 * ssh2 reads (OpenSSH, PEM PKCS#1/PKCS#8, PuTTY), unencrypted.
 */
export function privateKeyProblem(text: string): string | null {
  if (!text.trim()) return 'the file is empty';
  let parsed: ReturnType<typeof ssh2.utils.parseKey>;
  try {
    parsed = ssh2.utils.parseKey(text);
  } catch (error) {
    return (error as Error).message;
  }
  if (parsed instanceof Error) {
    return /passphrase|encrypted/i.test(parsed.message)
      ? 'it is protected by a passphrase: give a copy without one (ssh-keygen -p -N "" -f COPY)'
      : `it is not a private key ssh can read (${parsed.message})`;
  }
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!key) return 'the file holds no key';
  if (!key.isPrivateKey()) return 'it is a public key: give the private half (the file without .pub)';
  return null;
}
