import { describe, expect, it } from 'vitest';
import { resolveSuccessUrl } from '../../src/domains/payments/success-url.ts';
import { AppError } from '../../src/platform/errors.ts';

const refusal = (publicUrl: string, successPath: string) => {
  try {
    resolveSuccessUrl(publicUrl, successPath);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return (error as AppError).code;
  }
};

describe('success_path', () => {
  it("an absolute URL must be on PUBLIC_URL's origin: scheme, host and port", () => {
    const https = 'https://tributary.example';
    expect(resolveSuccessUrl(https, 'https://tributary.example/done?x=1')).toBe(
      'https://tributary.example/done?x=1',
    );
    expect(resolveSuccessUrl(https, 'https://TRIBUTARY.example:443/done')).toBe(
      'https://tributary.example/done',
    );
    expect(resolveSuccessUrl(https, '/checkout/complete')).toBe(
      'https://tributary.example/checkout/complete',
    );
    for (const other of [
      'https://tributary.example:8443/done',
      'http://tributary.example/done',
      'https://evil.example/done',
      'https://tributary.example.evil.example/done',
      'https://user@tributary.example/done',
    ]) {
      expect(refusal(https, other), other).toBe('invalid_success_path');
    }

    const local = 'http://127.0.0.1:8080';
    expect(resolveSuccessUrl(local, 'http://127.0.0.1:8080/done')).toBe('http://127.0.0.1:8080/done');
    for (const other of [
      'http://127.0.0.1:9999/done',
      'https://127.0.0.1/done',
      'https://127.0.0.1:8080/done',
    ]) {
      expect(refusal(local, other), other).toBe('invalid_success_path');
    }
  });
});
