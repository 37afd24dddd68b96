export { createSandboxAdapter } from './sandbox/sandbox-adapter.ts';
export {
  SANDBOX_EVENT_RATE,
  SANDBOX_EVENT_RULE,
  type TriggeredSandboxEvent,
  triggerSandboxEvent,
} from './sandbox/test-events.ts';
export { createSftpAdapter } from './sftp/sftp-adapter.ts';
