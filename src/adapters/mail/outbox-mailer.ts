import type { MailMessage, Mailer } from '../../ports/mailer.js';

export interface OutboxEntry extends MailMessage {
  sentAt: string;
}

interface LogSink {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Mail without SMTP. In development the message is kept in an in-memory
 * outbox (served at /dev/outbox) and written to the log, so sign-in works
 * with no mail server. Outside development nothing of the message body is
 * logged — it may hold a sign-in code — only that it could not be delivered.
 */
export class OutboxMailer implements Mailer {
  private readonly entries: OutboxEntry[] = [];

  constructor(
    private readonly log: LogSink,
    private readonly devMode: boolean,
    private readonly capacity = 100,
  ) {}

  async send(message: MailMessage): Promise<void> {
    if (!this.devMode) {
      // Nothing of the message: its subject and text carry the sign-in code.
      this.log.warn({}, 'mail not delivered: SMTP_URL is not set');
      return;
    }
    this.entries.unshift({ ...message, sentAt: new Date().toISOString() });
    this.entries.length = Math.min(this.entries.length, this.capacity);
    this.log.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, 'development outbox');
  }

  /** Newest first; empty outside development. */
  list(): OutboxEntry[] {
    return this.devMode ? [...this.entries] : [];
  }

  async close(): Promise<void> {}
}
