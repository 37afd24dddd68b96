/**
 * `npm run bench -- passwords`: the argon2id cost of one sign-in (verify) and one new account (hash)
 * with the project's parameters, sequentially and 8 at once, medians and p90 over 20 rounds.
 * docs/partners.md records the figures.
 */
import { hashPassword, PASSWORD_HASH_OPTIONS, verifyPassword } from '../src/domains/accounts/password.ts';

const ROUNDS = 20;
const quantile = (times: number[], q: number) =>
  [...times].sort((a, b) => a - b)[Math.min(times.length - 1, Math.floor(times.length * q))]!;
const show = (label: string, times: number[]) =>
  console.log(
    `${label.padEnd(24)} median ${quantile(times, 0.5).toFixed(1)} ms   p90 ${quantile(times, 0.9).toFixed(1)} ms`,
  );
const timed = async (work: () => Promise<unknown>) => {
  const start = performance.now();
  await work();
  return performance.now() - start;
};

const stored = await hashPassword('a long enough passphrase');
const hashes: number[] = [];
const verifies: number[] = [];
const concurrent: number[] = [];
for (let i = 0; i < ROUNDS; i++) {
  hashes.push(await timed(() => hashPassword(`passphrase number ${i}`)));
  verifies.push(await timed(() => verifyPassword(stored, 'a long enough passphrase')));
  concurrent.push(
    await timed(() =>
      Promise.all(Array.from({ length: 8 }, () => verifyPassword(stored, 'a long enough passphrase'))),
    ),
  );
}
console.log(
  `argon2id m=${PASSWORD_HASH_OPTIONS.memoryCost} t=${PASSWORD_HASH_OPTIONS.timeCost} p=${PASSWORD_HASH_OPTIONS.parallelism}`,
);
show('hash (new account)', hashes);
show('verify (sign-in)', verifies);
show('8 verifies at once', concurrent);
