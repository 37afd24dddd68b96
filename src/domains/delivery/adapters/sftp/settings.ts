/** How a DDEX-over-SFTP delivery retries and polls (config: SFTP_* settings). */
export interface SftpDeliverySettings {
  /** The first retry's delay after a failed attempt; each further one doubles it (SFTP_RETRY_SECONDS). */
  retrySeconds: number;
  /** Failed attempts in a row (or re-sends the store asked for) before the store fails (SFTP_MAX_ATTEMPTS). */
  maxAttempts: number;
  /** How often the store's acknowledgement is looked for (SFTP_ACK_POLL_SECONDS). */
  ackPollSeconds: number;
  /** After this long without one, the status says so and polls every window instead (SFTP_ACK_WINDOW_SECONDS). */
  ackWindowSeconds: number;
}

/** The longest a retry waits, however many attempts failed. */
const MAX_BACKOFF_SECONDS = 3600;

export function backoffSeconds(settings: SftpDeliverySettings, attempts: number): number {
  return Math.min(settings.retrySeconds * 2 ** Math.max(0, attempts - 1), MAX_BACKOFF_SECONDS);
}
