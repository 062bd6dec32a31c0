import type { Logger } from '@coin/telemetry';
import nodemailer from 'nodemailer';
import type { IdentityConfig } from '../../config.ts';

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

/** Without SMTP_URL (development mode only: the config refuses it in production) mail is logged, code included. */
function logTransport(log: Logger): MailTransport {
  return {
    async send(mail) {
      log.info({ mail }, 'e-mail written to the log (SMTP_URL is not set)');
    },
    close() {},
  };
}

export function createMailTransport(config: IdentityConfig, log: Logger): MailTransport {
  return config.SMTP_URL ? smtpTransport(config.SMTP_URL, config) : logTransport(log);
}
