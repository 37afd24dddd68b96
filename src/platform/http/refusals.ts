import type { AddressClass } from './address-policy.ts';

/**
 * Raised inside the connection's DNS lookup (where no request context is known) and turned into
 * AppErrors by the client, which knows the field and the redirect hop.
 */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly host: string;
  readonly address: string;
  readonly reason: AddressClass;

  constructor(host: string, address: string, reason: AddressClass) {
    super(`${host} resolves to a forbidden address (${reason}: ${address})`);
    this.host = host;
    this.address = address;
    this.reason = reason;
  }
}

export class HostUnresolvableError extends Error {
  override name = 'HostUnresolvableError';
  readonly host: string;

  constructor(host: string, cause?: unknown) {
    super(`${host} could not be resolved`, cause === undefined ? undefined : { cause });
    this.host = host;
  }
}
