/** `npm run bench [-- name]`: runs one benchmark (default: all) and prints its side-by-side figures. */
const BENCHES: Record<string, string> = {
  me: './me.ts',
  uploads: './uploads.ts',
  releases: './releases.ts',
  submit: './submit.ts',
  'release-list': './release-list.ts',
  'hot-paths': './hot-paths.ts',
  events: './events.ts',
  subscribers: './subscribers.ts',
  'fan-out-send': './fan-out-send.ts',
  webhooks: './webhooks.ts',
  'cover-art': './cover-art.ts',
  analytics: './analytics.ts',
  oauth: './oauth.ts',
  audio: './audio.ts',
  passwords: './passwords.ts',
  metrics: './metrics.ts',
  'two-processes': './two-processes.ts',
  'sftp-delivery': './sftp-delivery.ts',
  dashboard: './dashboard.ts',
};

const wanted = process.argv.slice(2);
for (const name of wanted.length > 0 ? wanted : Object.keys(BENCHES)) {
  const path = BENCHES[name];
  if (!path) {
    console.error(`unknown bench "${name}"; known: ${Object.keys(BENCHES).join(', ')}`);
    process.exit(2);
  }
  console.log(`\n== bench: ${name} ==`);
  await import(path);
}
