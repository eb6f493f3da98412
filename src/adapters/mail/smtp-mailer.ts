import nodemailer, { type Transporter } from 'nodemailer';
import type { MailMessage, Mailer } from '../../ports/mailer.js';

/** Real delivery through an SMTP server (`smtp://user:pass@host:port` or `smtps://…`). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, to: message.to, subject: message.subject, text: message.text, html: message.html });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
