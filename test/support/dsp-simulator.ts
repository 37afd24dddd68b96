import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ernSchemaErrorsOf } from '../delivery/ern-schema.ts';

/** What the simulated store answers for a package: its `FileStatus`, and whether a re-send fixes it. */
export interface DspAnswer {
  fileStatus: string;
  errorText?: string;
  manualCheckRequired?: boolean;
}

export interface ReceivedPackage {
  /** The message's path relative to the root. */
  messagePath: string;
  message: string;
  /** What the store answered. */
  answer: DspAnswer;
}

export interface DspSimulator {
  readonly received: ReceivedPackage[];
  stop(): void;
}

const FILE_PATTERN =
  /<File>\s*<URI>([^<]+)<\/URI>\s*<HashSum>\s*<Algorithm>SHA-256<\/Algorithm>\s*<HashSumValue>([0-9a-f]{64})<\/HashSumValue>\s*<\/HashSum>\s*<FileSize>(\d+)<\/FileSize>/g;

function ackXml(messageFile: string, answer: DspAnswer): string {
  const escaped = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<ernc:FtpAcknowledgementMessage xmlns:ernc="http://ddex.net/xml/ern-c/15" MessageVersionId="1.5">',
    '  <MessageHeader><MessageId>ack</MessageId></MessageHeader>',
    `  <AcknowledgedFile>${escaped(messageFile)}</AcknowledgedFile>`,
    `  <FileStatus>${answer.fileStatus}</FileStatus>`,
    answer.errorText ? `  <ErrorText>${escaped(answer.errorText)}</ErrorText>` : '',
    answer.manualCheckRequired === undefined
      ? ''
      : `  <ManualCheckRequired>${answer.manualCheckRequired}</ManualCheckRequired>`,
    '</ernc:FtpAcknowledgementMessage>',
  ]
    .filter(Boolean)
    .join('\n');
}

/** The messages of the root's complete packages: a `release` batch's `<UPC>.xml`, a `batch` batch's once marked complete. */
function completeMessages(root: string): string[] {
  const found: string[] = [];
  if (!existsSync(root)) return found;
  for (const batch of readdirSync(root)) {
    const dir = path.join(root, batch);
    if (!statSync(dir).isDirectory()) continue;
    const entries = readdirSync(dir);
    if (entries.includes(`BatchComplete_${batch}.xml`)) {
      for (const release of entries) {
        const message = path.join(batch, release, `${release}.xml`);
        if (existsSync(path.join(root, message))) found.push(message);
      }
    } else {
      for (const entry of entries) {
        if (/^\d+\.xml$/.test(entry)) found.push(path.join(batch, entry));
      }
    }
  }
  return found;
}

/**
 * A store's side of DDEX over SFTP, on the real directory the test's sshd serves: finds each complete
 * package, validates its ERN against the 4.3 schema, checks every file it names (SHA-256 and size),
 * and writes `ACK_<message file>` beside the message (written under a temporary name, then renamed):
 * `FileOK`, `NewReleaseMessageInvalid` for a message that does not validate, `ResourceCorrupt` for a
 * file that does not match, or what `answerFor` asks for.
 */
export function startDspSimulator(
  root: string,
  answerFor: (messagePath: string) => DspAnswer | null = () => null,
): DspSimulator {
  const received: ReceivedPackage[] = [];
  let busy = false;
  let stopped = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      for (const messagePath of completeMessages(root)) {
        const dir = path.dirname(path.join(root, messagePath));
        const file = path.basename(messagePath);
        const ack = path.join(dir, `ACK_${file}`);
        if (existsSync(ack)) continue;
        const message = readFileSync(path.join(root, messagePath), 'utf8');
        const answer = answerFor(messagePath) ?? (await check(dir, message));
        if (stopped) return;
        received.push({ messagePath, message, answer });
        writeFileSync(`${ack}.part`, ackXml(file, answer));
        renameSync(`${ack}.part`, ack);
      }
    } catch (error) {
      // A store stopped meanwhile (its directory removed) has nothing more to answer.
      if (!stopped) throw error;
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void tick(), 50);
  return {
    received,
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

async function check(dir: string, message: string): Promise<DspAnswer> {
  const errors = await ernSchemaErrorsOf(message);
  if (errors.length > 0) return { fileStatus: 'NewReleaseMessageInvalid', errorText: errors.join('; ') };
  // A takedown (every deal closed) updates metadata only: its resources need not be sent again.
  const takedown = message.includes('<EndDate>');
  for (const [, uri, sha256, size] of message.matchAll(FILE_PATTERN)) {
    const file = path.join(dir, uri!);
    if (!existsSync(file)) {
      if (takedown) continue;
      return { fileStatus: 'ResourceMissing', errorText: `${uri} is missing` };
    }
    const bytes = readFileSync(file);
    const actual = createHash('sha256').update(bytes).digest('hex');
    if (bytes.length !== Number(size) || actual !== sha256) {
      return {
        fileStatus: 'ResourceCorrupt',
        errorText: `${uri} does not match its HashSum`,
        manualCheckRequired: true,
      };
    }
  }
  return { fileStatus: 'FileOK' };
}
