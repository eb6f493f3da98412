/** Outgoing mail, behind a port owned by the domain: SMTP when SMTP_URL is set, otherwise the development outbox (src/adapters/mail). */
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
