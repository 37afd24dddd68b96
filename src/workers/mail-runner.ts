import type { EntityManager } from '@mikro-orm/postgresql';
import type { PgBoss } from 'pg-boss';
import type { Mailer } from '../domains/mail/index.ts';
import {
  CHALLENGE_QUEUE,
  type ChallengeJob,
  codeKey,
  issueChallenge,
} from '../domains/verified-email/index.ts';
import type { Clock } from '../platform/clock.ts';
import type { Logger } from '../platform/logger.ts';

/** Works the verified-email challenges: one code per job, mailed when the address has an account. */
export async function startMailRunner(deps: {
  boss: PgBoss;
  em: () => EntityManager;
  logger: Logger;
  mailer: Mailer;
  clock: Clock;
  secretKey: Uint8Array;
}): Promise<() => Promise<void>> {
  const key = codeKey(deps.secretKey);
  await deps.boss.work<ChallengeJob>(CHALLENGE_QUEUE, { pollingIntervalSeconds: 2 }, async (jobs) => {
    for (const job of jobs) {
      const outcome = await issueChallenge(
        deps.em(),
        { mailer: deps.mailer, key, clock: deps.clock },
        job.data,
      );
      // The address is not logged: the log must not tell who has an account either.
      deps.logger.info({ outcome, jobId: job.id }, 'verified-email challenge');
    }
  });
  return async () => {
    await deps.boss.offWork(CHALLENGE_QUEUE, { wait: true });
  };
}
