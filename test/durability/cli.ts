/**
 * `npm run campaign -- --trials 50 [--processes 2] [--seed n] [--max-minutes m]`: the kill -9 campaign at full length.
 * Prints a row per trial, the summary and every violation; exits 1 on any violation. Makes its own
 * template and database on the machine's PostgreSQL and drops them, also on Ctrl-C.
 */
import { parseArgs } from 'node:util';
import type { TestProject } from 'vitest/node';
import setup from '../support/global-setup.ts';
import { Campaign, formatSummary, TABLE_HEADER } from './campaign.ts';

const { values } = parseArgs({
  options: {
    trials: { type: 'string', default: '50' },
    seed: { type: 'string' },
    'max-minutes': { type: 'string', default: '45' },
    'kill-window-ms': { type: 'string', default: '1500' },
    processes: { type: 'string', default: '1' },
  },
});
const seed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 2 ** 31);
const options = {
  trials: Number(values.trials),
  seed,
  maxMinutes: Number(values['max-minutes']),
  killWindowMs: Number(values['kill-window-ms']),
  secondKillChance: 0.25,
  processes: Number(values.processes),
  log: (line: string) => console.log(line),
};
if (!Number.isInteger(options.trials) || options.trials < 1 || ![1, 2].includes(options.processes)) {
  console.error('--trials must be a positive integer, --processes 1 or 2');
  process.exit(2);
}

// The test run's global setup builds the migrated template the campaign's database is copied from.
const teardown = await setup({ provide: () => undefined } as unknown as TestProject);
const campaign = new Campaign(options);
let exiting = false;
const stop = async (code: number) => {
  if (exiting) return;
  exiting = true;
  await campaign.close();
  await teardown();
  process.exit(code);
};
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the server and dropping the database`);
    void stop(130);
  });

console.log(
  `kill -9 campaign: ${options.trials} trials, ${options.processes} process(es), seed ${seed}, at most ${options.maxMinutes} min`,
);
console.log(TABLE_HEADER);
try {
  const report = await campaign.run();
  console.log(formatSummary(report));
  await stop(report.violations > 0 || report.trials.length < options.trials ? 1 : 0);
} catch (error) {
  console.error(error);
  await stop(1);
}
