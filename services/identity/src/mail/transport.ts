import type { Logger } from '@coin/telemetry';
import nodemailer from 'nodemailer';
import type { IdentityConfig } from '../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface MailTransport {
  /** Resolves once the mail server accepted the message; rejects otherwise. */
  send(mail: Mail): Promise<void>;
  close(): void;
}

function smtpTransport(url: string, config: IdentityConfig): MailTransport {
  const timeout = config.SMTP_TIMEOUT_MS;
  const transporter = nodemailer.createTransport({
    url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    async send(mail) {
      await transporter.sendMail({ from: config.MAIL_FROM, ...mail });
    },
    close: () => transporter.close(),
  };
}

/**
 * Without SMTP_URL mail is written to the log, so a developer can read the code. In production
 * mode the body (which holds a code) is kept out of the log and the loss is reported instead.
 */
function logTransport(config: IdentityConfig, log: Logger): MailTransport {
  return {
    async send(mail) {
      if (config.APP_MODE === 'production') {
        log.warn({ to: mail.to, subject: mail.subject }, 'e-mail not delivered: SMTP_URL is not set');
      } else {
        log.info({ mail }, 'e-mail written to the log (SMTP_URL is not set)');
      }
    },
    close() {},
  };
}

export function createMailTransport(config: IdentityConfig, log: Logger): MailTransport {
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL, config) : logTransport(config, log);
}
