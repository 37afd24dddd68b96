export { createSandboxAdapter } from './sandbox/sandbox-adapter.ts';
export { createSftpAdapter } from './sftp/sftp-adapter.ts';
