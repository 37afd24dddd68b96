import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { conflict, invalidRequest } from '../../platform/errors.ts';
import { Account } from './account.entity.ts';
import { assertStrongPassword, hashPassword } from './password.ts';

export interface CreateAccountInput {
  email: string;
  firstName?: string | null;
  lastName?: string | null;
  isInsider?: boolean;
  isPatron?: boolean;
  isAdmin?: boolean;
  provenance?: string | null;
  /** Lets the person sign in on the web pages (stored only as an argon2id hash). */
  password?: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normaliseEmail(email: string): string {
  const normalised = email.trim().toLowerCase();
  if (!EMAIL.test(normalised) || normalised.length > 320) {
    throw invalidRequest('email is not a valid address.', [{ path: 'email', message: 'invalid email' }]);
  }
  return normalised;
}

export async function createAccount(em: EntityManager, input: CreateAccountInput): Promise<Account> {
  const email = normaliseEmail(input.email);
  if (input.password != null) assertStrongPassword(input.password);
  const passwordHash = input.password != null ? await hashPassword(input.password) : null;
  const account = em.create(Account, {
    email,
    passwordHash,
    firstName: input.firstName ?? null,
    lastName: input.lastName ?? null,
    isInsider: input.isInsider ?? false,
    isPatron: input.isPatron ?? false,
    isAdmin: input.isAdmin ?? false,
    provenance: input.provenance ?? null,
  });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw conflict('An account with this email already exists.', 'email_taken');
    }
    throw error;
  }
  return account;
}
