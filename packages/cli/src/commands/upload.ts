import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import {
  NotFoundError,
  type TributaryClient,
  type UploadedFile,
  type UploadProgress,
  type UploadType,
} from '@tributary/client';
import { MultiBar, Presets } from 'cli-progress';
import { type Command, InvalidArgumentError } from 'commander';
import { CliError, EXIT } from '../exit-codes.ts';
import { formatBytes, formatSeconds } from '../format.ts';
import { createOutput, type Output } from '../output.ts';
import { type GlobalOptions, signedInClient } from '../session.ts';
import { fileKey, forgetSession, rememberSession, sessionOf } from '../upload-state.ts';

const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.tif', '.tiff']);

const typeOf = (file: string, flag?: UploadType): UploadType =>
  flag ?? (IMAGE_EXTENSIONS.has(path.extname(file).toLowerCase()) ? 'coverArt' : 'audio');

interface UploadOptions {
  type?: UploadType;
  chunkBytes?: number;
}

/** How progress shows: a bar per file on a terminal, else a line per chunk. */
interface ProgressView {
  start(file: string, totalBytes: number): (progress: UploadProgress) => void;
  stop(): void;
}

function progressView(out: Output): ProgressView {
  if (out.json) return { start: () => () => {}, stop: () => {} };
  if (!out.tty)
    return {
      start: (file) => (progress) => {
        const percent = progress.totalBytes
          ? Math.floor((progress.bytesSent / progress.totalBytes) * 100)
          : 100;
        const eta = (progress.totalBytes - progress.bytesSent) / progress.bytesPerSecond;
        out.line(
          `${path.basename(file)} ${formatBytes(progress.bytesSent)}/${formatBytes(progress.totalBytes)} ${percent}% ${formatBytes(progress.bytesPerSecond)}/s ETA ${formatSeconds(eta)}`,
        );
      },
      stop: () => {},
    };
  const bars = new MultiBar(
    {
      format: '{file} [{bar}] {percentage}% | {sent}/{size} | {rate}/s | ETA {eta_formatted}',
      hideCursor: true,
      clearOnComplete: false,
      etaBuffer: 20,
    },
    Presets.shades_classic,
  );
  return {
    start: (file, totalBytes) => {
      const name = path.basename(file).padEnd(24).slice(0, 24);
      const bar = bars.create(totalBytes, 0, {
        file: name,
        sent: formatBytes(0),
        size: formatBytes(totalBytes),
        rate: '0 B',
      });
      return (progress) =>
        bar.update(progress.bytesSent, {
          sent: formatBytes(progress.bytesSent),
          rate: formatBytes(progress.bytesPerSecond),
        });
    },
    stop: () => bars.stop(),
  };
}

async function uploadOne(
  client: TributaryClient,
  file: string,
  options: UploadOptions,
  view: ProgressView,
  out: Output,
  signal: AbortSignal,
): Promise<UploadedFile & { file: string; resumed: boolean }> {
  const key = fileKey(file);
  const type = typeOf(file, options.type);
  const { size } = statSync(file);
  const onProgress = view.start(file, size);
  const transfer = { onProgress, signal, ...(options.chunkBytes ? { chunkBytes: options.chunkBytes } : {}) };
  const previous = sessionOf(key);
  if (previous) {
    try {
      if (!out.tty) out.line(`${path.basename(file)} resuming upload session ${previous.sessionId}`);
      const stored = await client.uploads.resume(previous.sessionId, file, transfer);
      forgetSession(key);
      return { ...stored, file, resumed: true };
    } catch (error) {
      // An expired or unknown session: start over.
      if (!(error instanceof NotFoundError)) throw error;
      forgetSession(key);
    }
  }
  const stored = await client.uploads.upload(file, {
    ...transfer,
    type,
    onSession: ({ sessionId }) => rememberSession(key, sessionId, type),
  });
  forgetSession(key);
  return { ...stored, file, resumed: false };
}

const positiveInteger = (value: string) => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('a positive number of bytes');
  return parsed;
};

export function registerUploadCommand(program: Command): void {
  program
    .command('upload')
    .description('Upload audio and cover art in resumable chunks, with a progress bar per file')
    .argument('<file...>', 'files to upload (images are cover art, anything else audio)')
    .option('--type <type>', 'audio or coverArt (default: from the extension)')
    .option('--chunk-bytes <n>', 'bytes per chunk (default: the service’s recommendation)', positiveInteger)
    .addHelpText(
      'after',
      `
An interrupted upload (Ctrl-C, a dropped connection) resumes where it stopped when the same command
runs again: the session of each file is kept in the config directory (uploads.json) until it completes.

Examples:
  $ tributary upload cover.png masters/*.wav
  $ tributary upload --json track.wav | jq -r '.files[0].fileUrl'`,
    )
    .action(async (files: string[], options: UploadOptions, command: Command) => {
      const globals = command.optsWithGlobals<GlobalOptions>();
      const out = createOutput(Boolean(globals.json));
      if (options.type && options.type !== 'audio' && options.type !== 'coverArt')
        throw new CliError(`--type must be audio or coverArt, not ${options.type}`, EXIT.usage, 'usage');
      for (const file of files)
        if (!existsSync(file)) throw new CliError(`no such file: ${file}`, EXIT.usage, 'file_not_found');
      const client = await signedInClient(globals);
      const controller = new AbortController();
      const interrupt = () => controller.abort();
      process.once('SIGINT', interrupt);
      const view = progressView(out);
      const uploaded: (UploadedFile & { file: string; resumed: boolean })[] = [];
      try {
        for (const file of files)
          uploaded.push(await uploadOne(client, file, options, view, out, controller.signal));
      } catch (error) {
        view.stop();
        if (controller.signal.aborted)
          throw new CliError(
            'interrupted: run the same command again to resume',
            EXIT.interrupted,
            'interrupted',
          );
        throw error;
      } finally {
        process.off('SIGINT', interrupt);
      }
      view.stop();
      out.result(
        { files: uploaded.map(({ file, resumed, ...stored }) => ({ file, resumed, ...stored })) },
        uploaded.map((entry) => `${entry.file} → ${entry.fileUrl}`).join('\n'),
      );
    });
}
