import { ConnectionException, UniqueConstraintViolationException } from '@mikro-orm/core';
import { describe, expect, it } from 'vitest';
import { databaseUnavailable, isDatabaseUnavailable } from '../../src/platform/db/unavailable.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('what counts as the database being away', () => {
  it.each([
    ['08006', 'connection failure'],
    ['08001', 'client unable to establish connection'],
    ['57P01', 'terminating connection due to administrator command'],
    ['57P02', 'terminating connection due to crash of another server process'],
    ['57P03', 'the database system is starting up'],
    ['53300', 'sorry, too many clients already'],
    ['ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'],
    ['ECONNRESET', 'read ECONNRESET'],
  ])('%s (%s)', (code, message) => {
    expect(isDatabaseUnavailable(withCode(code, message))).toBe(true);
  });

  it("node-postgres's lost connections and pool time-outs, in its words", () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Connection terminated',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ])
      expect(isDatabaseUnavailable(new Error(message)), message).toBe(true);
  });

  it('through the ORM and GraphQL wrappers (cause, originalError)', () => {
    const wrapped = new ConnectionException(withCode('57P01', 'terminating connection'));
    expect(isDatabaseUnavailable({ originalError: new Error('outer', { cause: wrapped }) })).toBe(true);
  });

  it('a refusal, a constraint or a bug is not an outage', () => {
    expect(isDatabaseUnavailable(withCode('22001', 'value too long'))).toBe(false);
    expect(isDatabaseUnavailable(new UniqueConstraintViolationException(withCode('23505')))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe(
      false,
    );
    expect(databaseUnavailable(new Error('boom'))).toBeNull();
  });

  it('answers 503 unavailable_error with a retry delay that says what to do', () => {
    const error = databaseUnavailable(withCode('ECONNREFUSED'));
    expect(error).toMatchObject({
      type: 'unavailable_error',
      code: 'database_unavailable',
      retryAfterSeconds: 5,
    });
    expect(error?.message).toMatch(/retry in 5 seconds/);
  });
});
