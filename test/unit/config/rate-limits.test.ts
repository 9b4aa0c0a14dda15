import { execFile } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_IDENTITY_LIMITS, identityOptionsFor } from '../../../actors/identity/identity-options';
import { ConfigError, loadConfig } from '../../../src/config/load-config';
import { parseRateLimit, rateLimitOf } from '../../../src/config/rate-limits';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('rate limits from the environment', () => {
  it('defaults to the limits the docs give', () => {
    const config = loadConfig({});
    expect(config.RATE_LIMIT_SIGNUP_PER_IP).toEqual({ points: 20, durationSec: 600 });
    expect(config.RATE_LIMIT_SIGNIN_PER_EMAIL).toEqual({ points: 50, durationSec: 3600 });
    expect(config.RATE_LIMIT_REGISTER_PER_IP).toEqual({ points: 20, durationSec: 3600 });
    expect(config.RATE_LIMIT_TOOL_CALLS_PER_AGENT).toEqual({ points: 600, durationSec: 60 });
    expect(config.RATE_LIMITS).toBe('on');
    expect(identityOptionsFor(config).limits).toEqual(DEFAULT_IDENTITY_LIMITS);
  });

  it.each([
    ['500/600s', { points: 500, durationSec: 600 }],
    ['500/10m', { points: 500, durationSec: 600 }],
    ['50/1h', { points: 50, durationSec: 3600 }],
    ['7 / 1d', { points: 7, durationSec: 86400 }],
    ['20/600', { points: 20, durationSec: 600 }],
  ])('reads %s', (text, spec) => {
    expect(parseRateLimit(text)).toEqual(spec);
    expect(loadConfig({ RATE_LIMIT_SIGNUP_PER_IP: text }).RATE_LIMIT_SIGNUP_PER_IP).toEqual(spec);
  });

  it.each(['lots', '20 per minute', '0/60s', '20/0s', '20/8d', '-1/60s', '20/60x', '1.5/60s'])(
    'stops the boot on %j with a message naming the variable',
    (value) => {
      const err = configError({ RATE_LIMIT_SIGNUP_PER_IP: value });
      expect(err.problems).toEqual([
        expect.stringMatching(/^RATE_LIMIT_SIGNUP_PER_IP: must be <requests>\/<window>, e\.g\. 20\/600s/),
      ]);
    },
  );

  it('feeds the identity limits, under the limits given in code (tests)', () => {
    const config = loadConfig({ RATE_LIMIT_SIGNUP_PER_IP: '500/10m', RATE_LIMIT_LOGIN_LINK_PER_IP: '5/1m' });
    const limits = identityOptionsFor(config, {
      bcryptCost: 4,
      limits: { fromKeyPerIp: { points: 2, durationSec: 60 } },
    });
    expect(limits.bcryptCost).toBe(4);
    expect(limits.limits).toMatchObject({
      signupPerIp: { points: 500, durationSec: 600 },
      fromKeyPerIp: { points: 2, durationSec: 60 },
      signupPerEmail: DEFAULT_IDENTITY_LIMITS.signupPerEmail,
    });
  });

  it('RATE_LIMITS=off turns off the identity and /register limits, not the tool-call limit', () => {
    const config = loadConfig({ RATE_LIMITS: 'off' });
    const limits = identityOptionsFor(config, {
      limits: { signinPerIp: { points: 3, durationSec: 60 } },
    }).limits!;
    for (const spec of Object.values(limits)) expect(spec.points).toBe(0);
    expect(rateLimitOf(config, 'RATE_LIMIT_REGISTER_PER_IP')).toBeUndefined();
    expect(rateLimitOf(config, 'RATE_LIMIT_TOOL_CALLS_PER_AGENT')).toEqual({ points: 600, durationSec: 60 });
  });

  it('RATE_LIMITS=off is refused with NODE_ENV=production; other values are refused', () => {
    expect(configError({ RATE_LIMITS: 'off', NODE_ENV: 'production' }).problems).toEqual([
      expect.stringMatching(/^RATE_LIMITS: off is refused with NODE_ENV=production/),
    ]);
    expect(loadConfig({ RATE_LIMITS: 'off', NODE_ENV: 'test' }).RATE_LIMITS).toBe('off');
    expect(configError({ RATE_LIMITS: 'disabled' }).problems).toEqual([
      expect.stringMatching(/^RATE_LIMITS: /),
    ]);
  });
});

describe('TRUST_PROXY and ALLOWED_ORIGINS', () => {
  it('reads a hop count or proxy addresses; unset is false', () => {
    expect(loadConfig({}).TRUST_PROXY).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(
      loadConfig({ TRUST_PROXY: '10.0.0.0/8, loopback, 2001:db8::/32, 192.168.1.7' }).TRUST_PROXY,
    ).toEqual(['10.0.0.0/8', 'loopback', '2001:db8::/32', '192.168.1.7']);
  });

  it.each(['true', '10.0.0.300', '10.0.0.0/33', 'proxy.example'])('refuses TRUST_PROXY=%s', (value) => {
    expect(configError({ TRUST_PROXY: value }).problems).toEqual([expect.stringMatching(/^TRUST_PROXY: /)]);
  });

  it('reads origins, normalised; refuses anything else', () => {
    expect(
      loadConfig({ ALLOWED_ORIGINS: 'https://Console.Example.com:443, http://localhost:6274/' })
        .ALLOWED_ORIGINS,
    ).toEqual(['https://console.example.com', 'http://localhost:6274']);
    expect(loadConfig({}).ALLOWED_ORIGINS).toEqual([]);
    for (const value of ['https://a.example/path', 'ftp://a.example', 'a.example', 'https://*.example.com']) {
      expect(configError({ ALLOWED_ORIGINS: value }).problems).toEqual([
        expect.stringMatching(/^ALLOWED_ORIGINS: must be a comma-separated list of origins/),
      ]);
    }
  });
});

describe('the program stops at boot on a bad limit', () => {
  const main = path.join(__dirname, '../../../src/main.ts');
  const register = path.join(__dirname, '../../support/ts-register.js');
  const run = (env: Record<string, string>) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['-r', register, main],
        { env: { ...process.env, PORT: '0', ...env }, timeout: 60_000 },
        (err, _stdout, stderr) =>
          resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stderr }),
      );
    });

  it('exits 2 naming the variable, for a bad limit and for RATE_LIMITS=off in production', async () => {
    const bad = await run({ RATE_LIMIT_SIGNUP_PER_IP: 'lots' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('RATE_LIMIT_SIGNUP_PER_IP: must be <requests>/<window>');
    const production = await run({ RATE_LIMITS: 'off', NODE_ENV: 'production' });
    expect(production.code).toBe(2);
    expect(production.stderr).toContain('RATE_LIMITS: off is refused with NODE_ENV=production');
  });
});
