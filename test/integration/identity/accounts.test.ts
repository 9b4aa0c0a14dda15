import { pinDateNowToOneSecond } from '../../support/one-second-clock';
import { PLANS } from '../../../actors/identity/plans';
import {
  PASSWORD,
  assertNoInternalIds,
  bearer,
  sessionCookieOf,
  startAccountsHarness,
  type AccountsHarness,
} from './support/accounts-harness';

let h: AccountsHarness;

beforeAll(async () => {
  h = await startAccountsHarness();
});
afterAll(async () => {
  await h?.stop();
});
afterEach(() => assertNoInternalIds());

const signupBody = (over: Record<string, unknown> = {}) => ({
  email: `new-${Math.random().toString(36).slice(2)}@example.com`,
  password: PASSWORD,
  accountType: 'retail',
  selectedPlan: 'retail_pro',
  ...over,
});

describe('POST /api/signup', () => {
  it.each([
    ['retail', 'retail_free', false],
    ['retail', 'retail_pro', true],
    ['enterprise', 'enterprise_plus', true],
    ['enterprise', 'enterprise_max', true],
  ] as const)(
    'creates a %s account on %s (bearer: %s), starts a session',
    async (accountType, plan, hasBearer) => {
      const browser = h.client();
      const res = await browser
        .post('/api/signup')
        .send(signupBody({ accountType, selectedPlan: plan }))
        .expect(201);
      expect(res.body).toEqual({
        success: true,
        redirectTo: '/',
        credentials: {
          bearerToken: hasBearer ? expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/) : null,
          apiKey: hasBearer ? res.body.credentials.bearerToken : null,
          plan,
          planLabel: PLANS[plan].label,
          capabilities: [...PLANS[plan].capabilities],
          expiresIn: '90 days',
        },
      });
      expect(res.body.credentials.capabilities.includes('use_bearer_token')).toBe(hasBearer);
      const cookie = String(res.headers['set-cookie']);
      expect(cookie).toMatch(/ars\.sid=.+; Path=\/; Expires=.+; HttpOnly; SameSite=Lax/);
      const session = await browser.get('/api/session').expect(200);
      expect(session.body).toMatchObject({ authenticated: true, session: { via: 'session', plan } });
    },
  );

  it('labels and capabilities follow COMPATIBILITY.md', () => {
    expect(Object.values(PLANS).map((p) => p.label)).toEqual(['Free', 'Pro', 'Enterprise', 'Enterprise Max']);
    expect(PLANS.retail_free.capabilities).toHaveLength(7);
    expect(PLANS.retail_pro.capabilities).toHaveLength(8);
    expect(PLANS.enterprise_plus.capabilities).toHaveLength(21);
    expect(PLANS.enterprise_max.capabilities).toEqual(PLANS.enterprise_plus.capabilities);
  });

  it('normalizes the email and provisions the default workspace', async () => {
    const email = `  MiXed-${Date.now()}@Example.COM `;
    await h.client().post('/api/signup').send(signupBody({ email })).expect(201);
    const account = await h.runtime.documents.db
      .collection('accounts')
      .findOne({ email: email.trim().toLowerCase() });
    expect(account).toMatchObject({ plan: 'retail_pro', accountType: 'retail', planSelectionSkipped: false });
    expect(account!.passwordHash).toMatch(/^\$2[aby]\$04\$/);
    const workspace = await h.runtime.documents.db
      .collection('workspaces')
      .findOne({ ownerAccountId: account!._id, isDefault: true });
    expect(workspace).toMatchObject({ _id: account!.defaultWorkspaceId, members: [{ role: 'owner' }] });
  });

  it.each([
    ['email missing', { email: undefined }, 'email'],
    ['email invalid', { email: 'not-an-email' }, 'email'],
    ['email not a string', { email: 42 }, 'email'],
    ['password missing', { password: undefined }, 'password'],
    ['password too short', { password: 'short7!' }, 'password'],
    ['password over 72 bytes', { password: 'é'.repeat(37) }, 'password'],
    ['agentName empty', { agentName: '   ' }, 'agentName'],
    ['agentName too long', { agentName: 'x'.repeat(65) }, 'agentName'],
    ['agentName with control characters', { agentName: 'a\u0007b' }, 'agentName'],
    ['accountType missing', { accountType: undefined }, 'accountType'],
    ['accountType unknown', { accountType: 'business' }, 'accountType'],
    ['selectedPlan missing', { selectedPlan: undefined }, 'selectedPlan'],
    ['selectedPlan unknown', { selectedPlan: 'retail_gold' }, 'selectedPlan'],
    [
      'plan of the other account type',
      { accountType: 'retail', selectedPlan: 'enterprise_plus' },
      'selectedPlan',
    ],
    [
      'enterprise with a retail plan',
      { accountType: 'enterprise', selectedPlan: 'retail_free' },
      'selectedPlan',
    ],
    ['planSelectionSkipped not boolean', { planSelectionSkipped: 'yes' }, 'planSelectionSkipped'],
  ])('400 when %s', async (_label, over, field) => {
    const res = await h.client().post('/api/signup').send(signupBody(over)).expect(400);
    expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining(field) });
    expect(res.body.details).toEqual(expect.arrayContaining([expect.objectContaining({ path: field })]));
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('400 for malformed JSON and a non-JSON body', async () => {
    const bad = await h
      .client()
      .post('/api/signup')
      .set('Content-Type', 'application/json')
      .send('{"email":');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('VALIDATION_ERROR');
    await h.client().post('/api/signup').set('Content-Type', 'text/plain').send('hello').expect(400);
  });

  it('409 for a used email (whatever its case) and a used agent name (whatever its case)', async () => {
    const first = await h.signup(h.client());
    const dupEmail = await h
      .client()
      .post('/api/signup')
      .send(signupBody({ email: first.email.toUpperCase() }))
      .expect(409);
    expect(dupEmail.body).toMatchObject({
      code: 'CONFLICT',
      error: 'An account with this email already exists',
    });
    const dupName = await h
      .client()
      .post('/api/signup')
      .send(signupBody({ agentName: first.agentName.toUpperCase() }))
      .expect(409);
    expect(dupName.body).toMatchObject({ code: 'CONFLICT', error: 'This agent name is already taken' });
  });

  it('lets concurrent signups with one email create exactly one account', async () => {
    const body = signupBody();
    const results = await Promise.all([1, 2, 3].map(() => h.client().post('/api/signup').send(body)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it('refuses a signup posted from another site (login CSRF)', async () => {
    const res = await h.client().post('/api/signup').set('Origin', 'https://evil.example').send(signupBody());
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });
});

describe('POST /api/signin', () => {
  it('answers a fresh token, the agent name, and a new session id (no fixation)', async () => {
    const browser = h.client();
    const account = await h.signup(browser);
    const before = await browser.get('/api/session').expect(200);
    expect(before.body.authenticated).toBe(true);

    // An attacker's planted cookie (here: the signup session) must not survive the sign-in.
    const oldCookie = (await browser.post('/api/signin').send({ email: account.email, password: PASSWORD }))
      .request.cookies;
    const signin = await browser
      .post('/api/signin')
      .send({ email: account.email, password: PASSWORD })
      .expect(200);
    expect(signin.body).toEqual({
      success: true,
      credentials: {
        bearerToken: expect.any(String),
        apiKey: signin.body.credentials.bearerToken,
        agentName: account.agentName,
        expiresIn: '90 days',
      },
    });
    expect(signin.body.credentials.bearerToken).not.toBe(account.token);
    const newCookie = sessionCookieOf(signin);
    expect(newCookie).toBeDefined();
    expect(oldCookie).toContain('ars.sid=');
    expect(oldCookie).not.toContain(newCookie!);
    // The old session id is dead.
    const replay = await h.client().get('/api/session').set('Cookie', oldCookie).expect(200);
    expect(replay.body).toEqual({ authenticated: false, session: null });
    await h
      .client()
      .get('/api/session')
      .set('Cookie', newCookie!)
      .expect(200, /"authenticated":true/);
    // Both tokens work.
    await h.client().get('/api/session').set('Authorization', bearer(account.token!)).expect(200);
    await h
      .client()
      .get('/api/session')
      .set('Authorization', bearer(signin.body.credentials.bearerToken))
      .expect(200);
  });

  it('uses the email local part as agentName when none was given, and null tokens on retail_free', async () => {
    const account = await h.signup(h.client(), { agentName: undefined, selectedPlan: 'retail_free' });
    expect(account.token).toBeNull();
    const res = await h
      .client()
      .post('/api/signin')
      .send({ email: ` ${account.email.toUpperCase()} `, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.credentials).toEqual({
      bearerToken: null,
      apiKey: null,
      agentName: account.email.split('@')[0],
      expiresIn: '90 days',
    });
  });

  it('answers the same 401 for a wrong password and an unknown email, without a cookie', async () => {
    const account = await h.signup(h.client());
    const wrong = await h
      .client()
      .post('/api/signin')
      .send({ email: account.email, password: 'wrong password' });
    const unknown = await h
      .client()
      .post('/api/signin')
      .send({ email: 'nobody@example.com', password: PASSWORD });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ error: 'Invalid email or password', code: 'UNAUTHORIZED' });
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers['set-cookie']).toBeUndefined();
  });

  it.each([
    ['email missing', { password: PASSWORD }],
    ['email invalid', { email: 'x', password: PASSWORD }],
    ['password missing', { email: 'a@example.com' }],
    ['password empty', { email: 'a@example.com', password: '' }],
  ])('400 when %s', async (_label, body) => {
    const res = await h.client().post('/api/signin').send(body).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('POST /api/plans/transition', () => {
  it('upgrades retail_free to retail_pro: recorded, free beta, and bearer access follows', async () => {
    const browser = h.client();
    const account = await h.signup(browser, { selectedPlan: 'retail_free' });
    await browser.post('/api/session/token').expect(403);
    const res = await browser.post('/api/plans/transition').send({ newPlan: 'retail_pro' }).expect(200);
    expect(res.body).toEqual({
      transitioned: true,
      noChange: false,
      transition: {
        oldPlan: 'retail_free',
        newPlan: 'retail_pro',
        newCapabilities: [...PLANS.retail_pro.capabilities],
      },
      billing: { mode: 'free_beta', charged: false },
    });
    await browser.post('/api/session/token').expect(200);
    const doc = await h.runtime.documents.db.collection('accounts').findOne({ email: account.email });
    const records = await h.runtime.documents.db
      .collection('plan_transitions')
      .find({ accountId: doc!._id })
      .toArray();
    expect(records).toEqual([
      expect.objectContaining({
        oldPlan: 'retail_free',
        newPlan: 'retail_pro',
        reason: 'beta_self_serve_upgrade',
        billing: { mode: 'free_beta', charged: false },
      }),
    ]);
  });

  it('answers noChange for the current plan, and records nothing', async () => {
    const account = await h.signup(h.client());
    const res = await h
      .client()
      .post('/api/plans/transition')
      .set('Authorization', bearer(account.token!))
      .send({ newPlan: 'retail_pro', reason: 'checking' })
      .expect(200);
    expect(res.body).toMatchObject({
      transitioned: false,
      noChange: true,
      transition: { oldPlan: 'retail_pro', newPlan: 'retail_pro' },
    });
  });

  it('moves a retail account to an enterprise plan, and its account type with it', async () => {
    const browser = h.client();
    await h.signup(browser);
    await browser
      .post('/api/plans/transition')
      .send({ newPlan: 'enterprise_max', reason: 'growing' })
      .expect(200);
    const session = await browser.get('/api/session').expect(200);
    expect(session.body.session).toMatchObject({
      plan: 'enterprise_max',
      accountType: 'enterprise',
      planLabel: 'Enterprise Max',
    });
  });

  it('downgrading to retail_free ends the account tokens already issued, even in the same second', async () => {
    const browser = h.client();
    const account = await h.signup(browser);
    const clock = pinDateNowToOneSecond();
    try {
      const minted = await browser.post('/api/session/token').expect(200);
      const token = minted.body.credentials.bearerToken as string;
      await h.client().get('/api/session').set('Authorization', bearer(token)).expect(200);
      await browser.post('/api/plans/transition').send({ newPlan: 'retail_free' }).expect(200);
      expect(Math.floor(Date.now() / 1000) * 1000).toBe(clock.second);
      for (const old of [account.token!, token]) {
        const res = await h.client().get('/api/session').set('Authorization', bearer(old)).expect(401);
        expect(res.body).toEqual({ error: 'Bearer token revoked', code: 'UNAUTHORIZED' });
      }
    } finally {
      clock.restore();
    }
    await browser.get('/api/session').expect(200, /"plan":"retail_free"/);
  });

  it('401 without credentials, 400 for an unknown plan, 403 for an agent token', async () => {
    await h.client().post('/api/plans/transition').send({ newPlan: 'retail_pro' }).expect(401);
    const browser = h.client();
    await h.signup(browser);
    const bad = await browser.post('/api/plans/transition').send({ newPlan: 'gold' }).expect(400);
    expect(bad.body.details[0].path).toBe('newPlan');
    await browser.post('/api/plans/transition').send({}).expect(400);
    await browser.post('/api/plans/transition').send({ newPlan: 'retail_pro', reason: '' }).expect(400);
    const agentToken = h.tokens().issue({ sub: 'agt_someagent', typ: 'agent' }).token;
    const res = await h
      .client()
      .post('/api/plans/transition')
      .set('Authorization', bearer(agentToken))
      .send({ newPlan: 'retail_pro' })
      .expect(403);
    expect(res.body.code).toBe('PERMISSION_DENIED');
  });
});
