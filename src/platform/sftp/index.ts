export { openSftp, type SftpTarget, type SftpTimeouts } from './connect.ts';
export {
  AuthenticationFailedError,
  ConnectionLostError,
  HostKeyMismatchError,
  PermissionDeniedError,
  SftpError,
  UnreachableError,
} from './errors.ts';
export { parseHostKeyFingerprint } from './host-key.ts';
export { privateKeyProblem } from './private-key.ts';
export { SftpSession } from './session.ts';
