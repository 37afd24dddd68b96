import { Command, CommanderError } from 'commander';
import { registerAuthCommands } from './commands/auth.ts';
import { registerReleaseCommands } from './commands/releases.ts';
import { registerUploadCommand } from './commands/upload.ts';
import { registerWebhookCommands } from './commands/webhooks.ts';
import { EXIT } from './exit-codes.ts';
import { reportFailure } from './output.ts';

const EXIT_CODES_HELP = `
Exit codes:
  0    done
  1    the API answered an error (or could not be reached)
  2    usage error (unknown command or option, unreadable file)
  3    not logged in, or the token was refused
  4    a watched release ended with a failed or rejected store
  5    the release has blocking rule findings (validate, quote, submit)
  130  interrupted (Ctrl-C); an upload resumes on the next run

Environment:
  TRIBUTARY_API_URL   the service (default: the stored one, else http://localhost:8080)
  TRIBUTARY_TOKEN     a token to use instead of the stored credentials
  XDG_CONFIG_HOME     where tributary/credentials.json is kept (default ~/.config)`;

export function buildProgram(): Command {
  const program = new Command('tributary')
    .description(
      'The Tributary command line: sign in, upload, validate, submit and watch releases, forward webhooks',
    )
    .version('0.1.0')
    .option('--json', 'print one JSON document on stdout (for scripts)')
    .option('--api-url <url>', 'the service to talk to (overrides TRIBUTARY_API_URL)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `\nExamples:\n  $ tributary login\n  $ tributary upload cover.png track.wav\n  $ tributary submit release.json --watch\n${EXIT_CODES_HELP}`,
    );
  registerAuthCommands(program);
  registerUploadCommand(program);
  registerReleaseCommands(program);
  registerWebhookCommands(program);
  return program;
}

/** Runs the command line; answers the exit code. */
export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  const json = argv.includes('--json');
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version' ||
        error.code === 'commander.help'
      )
        return EXIT.ok;
      return EXIT.usage;
    }
    return reportFailure(error, json);
  }
}
