// The service's entry point, in plain JavaScript on purpose: an older Node (started outside npm, which
// pins Node 24) cannot load TypeScript at all, and must still say why it stops.
const major = Number.parseInt(process.versions.node.split('.')[0] ?? '0', 10);
if (major < 24) {
  console.error(
    `Tributary needs Node 24; this is Node ${process.versions.node}. Start it through npm (npm start), ` +
      'which runs the Node pinned in package.json.',
  );
  process.exit(1);
}
await import('./main.ts');
