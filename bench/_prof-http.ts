import { measureHttp } from './support/measure.ts';
import { benchApp } from './support/servers.ts';

const path = process.env.PROF_PATH ?? '/v1/status';
const bench = await benchApp('tributary_prof_http', {
  env: { NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/prof' },
});
try {
  const auth = { authorization: `Bearer ${bench.account.token}` };
  await measureHttp('warm', { url: `${bench.app.url}${path}`, headers: auth }, 2, 10);
  const m = await measureHttp(path, { url: `${bench.app.url}${path}`, headers: auth }, 8, 10);
  console.log(m);
} finally {
  await bench.close();
}
