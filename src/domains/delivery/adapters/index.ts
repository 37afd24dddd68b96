export { createSandboxAdapter } from './sandbox/sandbox-adapter.ts';
export { SandboxControl } from './sandbox/sandbox-control.entity.ts';
export { createSftpAdapter } from './sftp/sftp-adapter.ts';
export { SftpPackage } from './sftp/sftp-package.entity.ts';
