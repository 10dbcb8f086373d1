/**
 * The Mailer port over SMTP with nodemailer (DECKFORGE_SMTP_URL): `smtps://` is TLS from the start, `smtp://`
 * upgrades with STARTTLS when the server offers it. One connection per message (the console sends few); timeouts
 * are short, so a sign-up never waits long on an unreachable server. Message texts are never logged (they carry
 * keys and one-time links).
 */
import nodemailer, { type Transporter } from 'nodemailer';
import { MailDeliveryError, type MailMessage, type Mailer } from '../../service/ports/index.js';

export class SmtpMailer implements Mailer {
  readonly configured = true;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    const url = new URL(smtpUrl);
    this.transport = nodemailer.createTransport({
      host: url.hostname,
      port: url.port === '' ? (url.protocol === 'smtps:' ? 465 : 587) : Number(url.port),
      secure: url.protocol === 'smtps:',
      ...(url.username === ''
        ? {}
        : { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 20_000,
    });
  }

  async send(message: MailMessage): Promise<void> {
    try {
      await this.transport.sendMail({
        from: this.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
      });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new MailDeliveryError(`the mail server did not take the message: ${reason}`);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** No DECKFORGE_SMTP_URL: nothing can be sent; the service checks `configured` before it tries. */
export class NoMailer implements Mailer {
  readonly configured = false;

  async send(): Promise<void> {
    throw new MailDeliveryError('no mail server is configured (DECKFORGE_SMTP_URL)');
  }

  async close(): Promise<void> {}
}
