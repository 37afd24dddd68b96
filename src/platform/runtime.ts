/** Node 24 is pinned by the `node` dependency; anything started outside npm may run an older Node. */
export function assertNodeVersion(required = 24): void {
  const major = Number.parseInt(process.versions.node.split('.')[0] ?? '0', 10);
  if (major < required) {
    console.error(
      `Tributary needs Node ${required}; this is Node ${process.versions.node}. Start it through npm (npm start), ` +
        'which runs the Node pinned in package.json.',
    );
    process.exit(1);
  }
}
