import type { MailMessage } from './mailer';

/** The password-reset mail: a link for people and the bare token for API clients. */
export function resetMail(baseUrl: string, to: string, token: string, ttlMs: number): MailMessage {
  const minutes = Math.round(ttlMs / 60000);
  const link = `${baseUrl}/reset-password?email=${encodeURIComponent(to)}&token=${token}`;
  return {
    to,
    subject: 'Reset your password',
    text: [
      'Someone (hopefully you) asked to reset the password of your Agent Runtime Service account.',
      '',
      `Open this link within ${minutes} minutes to choose a new password:`,
      link,
      '',
      'Or send it to the API: POST /api/forgot-password/confirm {email, token, newPassword}',
      `Reset token: ${token}`,
      '',
      'The token works once. If you did not ask for this, ignore this message.',
      '',
    ].join('\n'),
  };
}
