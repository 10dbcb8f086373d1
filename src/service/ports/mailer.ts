/** Sends the console's e-mails (address confirmation with the security key, password reset, key rotation). */

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text; the adapter may add an HTML alternative made from it. */
  text: string;
}

export interface Mailer {
  /** False when no mail server is configured: sign-up stays closed and keys are shown once instead. */
  readonly configured: boolean;
  /** Rejects with MailDeliveryError when the server refused the message or could not be reached. */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export class MailDeliveryError extends Error {
  override readonly name = 'MailDeliveryError';
}
