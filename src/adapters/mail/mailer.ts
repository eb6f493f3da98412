/** Outgoing mail, behind a port: SMTP when SMTP_URL is set, otherwise the development outbox. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}
