import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../../src/logging/logger';

/** One plain-text message. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail. Never logs the body (it carries one-time tokens). */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** Sender address of the service's mail. */
export const MAIL_FROM = 'Agent Runtime Service <no-reply@agent-runtime.invalid>';

/**
 * SMTP when `SMTP_URL` is set (nodemailer), otherwise the outbox: each message is written as an
 * RFC 822 file `DATA_DIR/outbox/<time>-<random>.eml` (open it with any mail client, or read the
 * text), and a line "mail written to outbox" names the file, never the content.
 */
export function createMailer(config: { SMTP_URL?: string; DATA_DIR: string }, logger: Logger): Mailer {
  if (config.SMTP_URL) {
    const transport = nodemailer.createTransport(config.SMTP_URL);
    return {
      async send(message) {
        await transport.sendMail({ from: MAIL_FROM, ...message });
        logger.info({ subject: message.subject }, 'mail sent');
      },
    };
  }
  const outbox = path.join(config.DATA_DIR, 'outbox');
  const builder = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await builder.sendMail({ from: MAIL_FROM, ...message });
      await fs.mkdir(outbox, { recursive: true, mode: 0o700 });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomBytes(4).toString('hex')}.eml`;
      // Write-then-rename: a reader polling the outbox never sees half a message.
      const tmp = path.join(outbox, `.${name}.tmp`);
      await fs.writeFile(tmp, info.message as Buffer, { mode: 0o600 });
      await fs.rename(tmp, path.join(outbox, name));
      logger.info({ file: name, subject: message.subject }, 'mail written to outbox');
    },
  };
}
