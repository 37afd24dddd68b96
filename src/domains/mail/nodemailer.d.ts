// nodemailer 10 ships no type declarations: the part of its API this project uses.
declare module 'nodemailer' {
  interface SentMessageInfo {
    messageId: string;
    accepted: unknown[];
    rejected: unknown[];
  }
  interface Transporter {
    sendMail(message: {
      from: string;
      to: string;
      subject: string;
      text: string;
      html: string;
    }): Promise<SentMessageInfo>;
    close(): void;
  }
  export function createTransport(url: string): Transporter;
  const nodemailer: { createTransport: typeof createTransport };
  export default nodemailer;
}
