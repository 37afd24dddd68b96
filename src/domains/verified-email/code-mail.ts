import type { Mail } from '../mail/index.ts';

const escapeHtml = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** The code mail: the code leads the subject (agents read its first 8 digits), then text and HTML. */
export function codeMail(input: { to: string; code: string; clientName: string; minutes: number }): Mail {
  const { code, clientName, minutes } = input;
  const text = [
    `${clientName} asked for access to your Tributary account.`,
    'With the code it can use the agent interface as you: upload audio, keep drafts, and quote and submit',
    'releases (submitting spends your credits).',
    '',
    `Your code: ${code}`,
    '',
    `It works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: nothing happens`,
    'without the code. You can revoke the access later in developer settings (tokens).',
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif">
<p>${escapeHtml(clientName)} asked for access to your Tributary account.</p>
<p>With the code it can use the agent interface as you: upload audio, keep drafts, and quote and submit releases (submitting spends your credits).</p>
<p style="font-size:1.5em;letter-spacing:0.2em"><strong>${code}</strong></p>
<p>It works once, for ${minutes} minutes. If you did not ask for it, ignore this mail: nothing happens without the code. You can revoke the access later in developer settings (tokens).</p>
</body></html>`;
  return {
    to: input.to,
    subject: `${code} is your Tributary code for ${clientName}`.slice(0, 300),
    text,
    html,
  };
}
