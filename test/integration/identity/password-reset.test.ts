import { pinDateNowToOneSecond } from '../../support/one-second-clock';
import { memoryLogger } from '../../unit/http/support/test-app';
import {
  PASSWORD,
  assertNoInternalIds,
  bearer,
  eventually,
  readOutbox,
  resetTokenFor,
  startAccountsHarness,
  type AccountsHarness,
} from './support/accounts-harness';

let h: AccountsHarness;
const log = memoryLogger('info');

beforeAll(async () => {
  h = await startAccountsHarness({ logger: log.logger });
});
afterAll(async () => {
  await h?.stop();
});
afterEach(() => assertNoInternalIds());

const NEW_PASSWORD = 'a brand new passphrase';

describe('POST /api/forgot-password', () => {
  it('answers {success: true} for an unknown email and sends nothing', async () => {
    const before = readOutbox(h.dir).length;
    const res = await h
      .client()
      .post('/api/forgot-password')
      .send({ email: 'nobody-here@example.com' })
      .expect(200);
    expect(res.body).toEqual({ success: true });
    await new Promise((r) => setTimeout(r, 200));
    expect(readOutbox(h.dir).length).toBe(before);
  });

  it('answers the same for a known email and writes the mail to the outbox (token not logged)', async () => {
    const account = await h.signup(h.client());
    const res = await h
      .client()
      .post('/api/forgot-password')
      .send({ email: account.email.toUpperCase() })
      .expect(200);
    expect(res.body).toEqual({ success: true });
    const token = await eventually(() => resetTokenFor(h.dir, account.email));
    expect(token.length).toBeGreaterThanOrEqual(40);
    const mail = readOutbox(h.dir).find((m) => m.raw.includes(token))!;
    expect(mail.raw).toMatch(/Subject: Reset your password/);
    expect(log.raw.some((line) => line.includes('mail written to outbox'))).toBe(true);
    expect(log.raw.some((line) => line.includes(token))).toBe(false);
    // Stored hashed, never in clear.
    const doc = await h.runtime.documents.db.collection('accounts').findOne({ email: account.email });
    expect(doc!.reset.tokenHash).toMatch(/^[a-f0-9]{64}$/);
    expect(JSON.stringify(doc)).not.toContain(token);
  });

  it('400 for a missing or invalid email', async () => {
    await h.client().post('/api/forgot-password').send({}).expect(400);
    await h.client().post('/api/forgot-password').send({ email: 'nope' }).expect(400);
  });
});

describe('POST /api/forgot-password/confirm', () => {
  it('changes the password once; old password, old tokens and other sessions die', async () => {
    const browser = h.client();
    const account = await h.signup(browser);
    const otherDevice = h.client();
    await otherDevice.post('/api/signin').send({ email: account.email, password: PASSWORD }).expect(200);
    await h.client().post('/api/forgot-password').send({ email: account.email }).expect(200);
    const token = await eventually(() => resetTokenFor(h.dir, account.email));

    const res = await h
      .client()
      .post('/api/forgot-password/confirm')
      .send({ email: account.email, token, newPassword: NEW_PASSWORD })
      .expect(200);
    expect(res.body).toEqual({ success: true });

    const again = await h
      .client()
      .post('/api/forgot-password/confirm')
      .send({ email: account.email, token, newPassword: 'yet another passphrase' })
      .expect(400);
    expect(again.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      error: 'Invalid or expired password reset token',
    });

    await h.client().post('/api/signin').send({ email: account.email, password: PASSWORD }).expect(401);
    await h.client().post('/api/signin').send({ email: account.email, password: NEW_PASSWORD }).expect(200);
    await h.client().get('/api/session').set('Authorization', bearer(account.token!)).expect(401);
    await browser.get('/api/session').expect(200, { authenticated: false, session: null });
    await otherDevice.get('/api/session').expect(200, { authenticated: false, session: null });

    // The cutoff is durable: still refused after a restart (embedded cache emptied).
    await h.restart();
    await h.client().get('/api/session').set('Authorization', bearer(account.token!)).expect(401);
  });

  it('ends a token minted in the same second as the reset, before it; one minted after it lives', async () => {
    const account = await h.signup(h.client());
    await h.client().post('/api/forgot-password').send({ email: account.email }).expect(200);
    const resetToken = await eventually(() => resetTokenFor(h.dir, account.email));
    const clock = pinDateNowToOneSecond();
    try {
      const signin = await h
        .client()
        .post('/api/signin')
        .send({ email: account.email, password: PASSWORD })
        .expect(200);
      const minted = signin.body.credentials.bearerToken as string;
      await h.client().get('/api/session').set('Authorization', bearer(minted)).expect(200);
      await h
        .client()
        .post('/api/forgot-password/confirm')
        .send({ email: account.email, token: resetToken, newPassword: NEW_PASSWORD })
        .expect(200);
      const again = await h
        .client()
        .post('/api/signin')
        .send({ email: account.email, password: NEW_PASSWORD })
        .expect(200);
      expect(Math.floor(Date.now() / 1000) * 1000).toBe(clock.second);
      const refused = await h.client().get('/api/session').set('Authorization', bearer(minted)).expect(401);
      expect(refused.body).toEqual({ error: 'Bearer token revoked', code: 'UNAUTHORIZED' });
      await h
        .client()
        .get('/api/session')
        .set('Authorization', bearer(again.body.credentials.bearerToken as string))
        .expect(200);
    } finally {
      clock.restore();
    }
  });

  it('refuses a wrong token, a token of another account, an older token and a short password', async () => {
    const a = await h.signup(h.client());
    const b = await h.signup(h.client());
    await h.client().post('/api/forgot-password').send({ email: a.email }).expect(200);
    const first = await eventually(() => resetTokenFor(h.dir, a.email));
    await h.client().post('/api/forgot-password').send({ email: b.email }).expect(200);
    const tokenB = await eventually(() => resetTokenFor(h.dir, b.email));

    const confirm = (email: string, token: string, newPassword = NEW_PASSWORD) =>
      h.client().post('/api/forgot-password/confirm').send({ email, token, newPassword });
    expect((await confirm(a.email, 'x'.repeat(43))).status).toBe(400);
    expect((await confirm(a.email, tokenB)).status).toBe(400);
    expect((await confirm('nobody@example.com', first)).status).toBe(400);
    const short = await confirm(a.email, first, 'short');
    expect(short.status).toBe(400);
    expect(short.body.details[0].path).toBe('newPassword');
    await h
      .client()
      .post('/api/forgot-password/confirm')
      .send({ email: a.email, newPassword: NEW_PASSWORD })
      .expect(400);

    // A newer request replaces the pending token.
    await h.client().post('/api/forgot-password').send({ email: a.email }).expect(200);
    const second = await eventually(() => {
      const t = resetTokenFor(h.dir, a.email);
      return t !== first ? t : undefined;
    });
    expect((await confirm(a.email, first)).status).toBe(400);
    expect((await confirm(a.email, second)).status).toBe(200);
  });
});

describe('an expired reset token', () => {
  it('is refused after its lifetime', async () => {
    const short = await startAccountsHarness({ identity: { resetTokenTtlMs: 300 } });
    try {
      const account = await short.signup(short.client());
      await short.client().post('/api/forgot-password').send({ email: account.email }).expect(200);
      const token = await eventually(() => resetTokenFor(short.dir, account.email));
      await new Promise((r) => setTimeout(r, 400));
      await short
        .client()
        .post('/api/forgot-password/confirm')
        .send({ email: account.email, token, newPassword: NEW_PASSWORD })
        .expect(400);
    } finally {
      await short.stop();
    }
  });
});

describe('logs', () => {
  it('never contain a password', () => {
    const all = log.raw.join('');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(NEW_PASSWORD);
  });
});
