import { isHostAllowed, parseAllowEntry } from '../../../../actors/tools/net/allowlist';

describe('allowlist', () => {
  it('allows every host when empty', () => {
    expect(isHostAllowed('anything.example.org', [])).toBe(true);
  });

  it('matches an exact entry only (not subdomains, not the parent)', () => {
    const list = ['api.example.com'];
    expect(isHostAllowed('api.example.com', list)).toBe(true);
    expect(isHostAllowed('v2.api.example.com', list)).toBe(false);
    expect(isHostAllowed('example.com', list)).toBe(false);
    expect(isHostAllowed('evilapi.example.com', list)).toBe(false);
    expect(isHostAllowed('api.example.com.evil.org', list)).toBe(false);
  });

  it('matches a wildcard at any depth but not the apex', () => {
    const list = ['*.example.com'];
    expect(isHostAllowed('a.example.com', list)).toBe(true);
    expect(isHostAllowed('a.b.example.com', list)).toBe(true);
    expect(isHostAllowed('example.com', list)).toBe(false);
    expect(isHostAllowed('badexample.com', list)).toBe(false);
    expect(isHostAllowed('example.com.evil.org', list)).toBe(false);
    expect(isHostAllowed('a.example.com', ['*.example.com', 'example.com'])).toBe(true);
    expect(isHostAllowed('example.com', ['*.example.com', 'example.com'])).toBe(true);
  });

  it('normalises entries: case, trailing dot, IDN', () => {
    expect(isHostAllowed('api.example.com', [' API.Example.COM. '])).toBe(true);
    expect(isHostAllowed('xn--bcher-kva.de', ['bücher.de'])).toBe(true);
    expect(isHostAllowed('shop.xn--bcher-kva.de', ['*.BÜCHER.de'])).toBe(true);
  });

  it('matches IP entries against literal addresses only, canonically', () => {
    expect(isHostAllowed('93.184.216.34', ['93.184.216.34'])).toBe(true);
    expect(isHostAllowed('93.184.216.35', ['93.184.216.34'])).toBe(false);
    expect(isHostAllowed('2606:4700::1', ['[2606:4700:0:0::1]'])).toBe(true);
    expect(parseAllowEntry('1572395042')).toEqual({ exact: '93.184.216.34' });
  });

  it('ignores entries that cannot match (fail closed)', () => {
    expect(parseAllowEntry('*.1.2.3.4')).toBeUndefined();
    expect(parseAllowEntry('1.2.3.4.5')).toBeUndefined();
    expect(parseAllowEntry('')).toBeUndefined();
    expect(parseAllowEntry('*.')).toBeUndefined();
    expect(isHostAllowed('example.com', ['*', ''])).toBe(false);
  });
});
