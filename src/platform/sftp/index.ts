export { openSftp, type SftpTarget, type SftpTimeouts } from './connect.ts';
export {
  AuthenticationFailedError,
  ConnectionLostError,
  HostKeyMismatchError,
  PermissionDeniedError,
  SftpError,
  type SftpErrorKind,
  UnreachableError,
} from './errors.ts';
export { fingerprintOf, parseHostKeyFingerprint } from './host-key.ts';
export { privateKeyProblem } from './private-key.ts';
export { type Chunks, type RemoteEntry, SftpSession, temporaryNameOf } from './session.ts';
