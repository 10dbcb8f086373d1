/**
 * The Mailer port for development (DECKFORGE_MAIL_LOG=true): each mail is written to the server's log, whole, at
 * `warn` so the default log level shows it, instead of being sent. Configuration refuses the mode in production
 * and on a server others can reach, since the mails carry one-time links and security keys.
 */
import type { Logger } from 'pino';
import type { MailMessage, Mailer } from '../../service/ports/index.js';

export class LogMailer implements Mailer {
  readonly configured = true;

  constructor(
    private readonly logger: Logger,
    private readonly from: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.logger.warn(
      { mail: { from: this.from, to: message.to, subject: message.subject, text: message.text } },
      'mail written to the log instead of sent (DECKFORGE_MAIL_LOG=true, development only)',
    );
  }

  async close(): Promise<void> {}
}
