import { findUnsafeCharacter } from '../../../schemas/display-text';
import {
  bearer,
  startWorkspaceHarness,
  type TestAccount,
  type WorkspaceHarness,
} from '../workspaces/support/workspace-harness';

/**
 * One rule for every display name and path (schemas/display-text.ts): NUL, ESC, C1 controls,
 * bidi overrides and line separators are refused with 400 VALIDATION_ERROR and a readable reason,
 * wherever a name or a path comes in.
 */
const UNSAFE: Array<[string, string]> = [
  ['NUL', 'a\u0000b'],
  ['ESC', 'a\u001b[31mb'],
  ['C1 (NEL)', 'a\u0085b'],
  ['RIGHT-TO-LEFT OVERRIDE', 'invoice\u202Etxt.exe'],
  ['LEFT-TO-RIGHT ISOLATE', 'a\u2066b'],
  ['LINE SEPARATOR', 'a\u2028b'],
  ['a trailing newline', 'name\n'],
];

describe('display names and paths refuse control characters', () => {
  let h: WorkspaceHarness;
  let a: TestAccount;
  let namedTokenId: string;

  beforeAll(async () => {
    h = await startWorkspaceHarness();
    a = await h.account();
    const created = await h.http().post('/api/bearer-tokens').set(bearer(a.token)).send({ name: 'plain' });
    expect(created.status).toBe(201);
    namedTokenId = created.body.token.id as string;
  }, 60_000);
  afterAll(async () => {
    await h?.stop();
  });

  /** Each place a name or a path comes in, as a request for a given value. */
  const places: Array<
    [string, (value: string) => Promise<{ status: number; body: Record<string, unknown> }>]
  > = [
    [
      'signup agentName',
      (v) =>
        h
          .http()
          .post('/api/signup')
          .send({
            email: `dn-${Math.random().toString(36).slice(2)}@example.com`,
            password: 'correct horse battery',
            agentName: v,
            accountType: 'retail',
            selectedPlan: 'retail_pro',
          }),
    ],
    ['/register name', (v) => h.http().post('/register').send({ name: v })],
    ['POST /api/agents name', (v) => h.http().post('/api/agents').set(bearer(a.token)).send({ name: v })],
    [
      'POST /api/bearer-tokens name',
      (v) => h.http().post('/api/bearer-tokens').set(bearer(a.token)).send({ name: v }),
    ],
    [
      'PATCH /api/bearer-tokens name',
      (v) => h.http().patch('/api/bearer-tokens').set(bearer(a.token)).send({ id: namedTokenId, name: v }),
    ],
    [
      'POST /api/workspaces name',
      (v) => h.http().post('/api/workspaces').set(bearer(a.token)).send({ name: v }),
    ],
    [
      'POST /api/sdk/credentials name',
      (v) => h.http().post('/api/sdk/credentials').set(bearer(a.token)).send({ name: v }),
    ],
    [
      'POST /api/files path',
      (v) =>
        h
          .http()
          .post('/api/files')
          .set(bearer(a.token))
          .send({ path: `docs/${v}.md`, data: 'x' }),
    ],
  ];

  // The same request with a clean value passes validation (a plan may still refuse it: 403).
  it.each(places)('%s: a clean name passes validation (the baseline)', async (_where, send) => {
    const res = await send(`Clean name ${Math.random().toString(36).slice(2, 8)}`);
    expect(res.body.code).not.toBe('VALIDATION_ERROR');
    expect(res.status).toBeLessThan(500);
  });

  for (const [where, send] of places) {
    it.each(UNSAFE)(`${where}: %s is refused with 400 and a readable reason`, async (_label, value) => {
      const res = await send(value);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.error).toMatch(
        /must not contain (control characters|bidirectional text controls|line or paragraph separators) \(U\+[0-9A-F]{4} at position \d+\)/,
      );
    });
  }

  it('the rule names the character and its position', () => {
    expect(findUnsafeCharacter('ok name')).toBeUndefined();
    expect(findUnsafeCharacter('family \u{1F468}\u200D\u{1F469}')).toBeUndefined();
    expect(findUnsafeCharacter('ab\u202Ec')).toMatchObject({ kind: 'bidi', codePoint: 'U+202E', index: 2 });
    expect(findUnsafeCharacter('\u001b')).toMatchObject({ kind: 'control', codePoint: 'U+001B', index: 0 });
    expect(findUnsafeCharacter('a\uD800')).toMatchObject({ kind: 'surrogate', index: 1 });
  });
});
