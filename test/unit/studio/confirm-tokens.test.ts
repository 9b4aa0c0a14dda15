import { ConfirmTokens } from '../../../actors/studio/confirm-tokens';
import type { Principal } from '../../../schemas/auth';
import { MemoryCache } from '../../../src/store/cache/memory.cache';

const alice: Principal = { subjectType: 'account', accountId: 'acc_a', via: 'bearer' };
const bob: Principal = { subjectType: 'account', accountId: 'acc_b', via: 'bearer' };

describe('ConfirmTokens', () => {
  let cache: MemoryCache;
  let tokens: ConfirmTokens;
  beforeEach(() => {
    cache = new MemoryCache();
    tokens = new ConfirmTokens(cache);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await cache.close();
  });

  it('is bound to the caller, the command and the mode, and single use', async () => {
    const token = await tokens.issue(alice, 'tool run mem_set', false);
    expect(await tokens.redeem(bob, 'tool run mem_set', false, token)).toBe(false);
    expect(await tokens.redeem(alice, 'tool run mem_del', false, token)).toBe(false);
    expect(await tokens.redeem(alice, 'tool run mem_set', true, token)).toBe(false);
    expect(await tokens.redeem({ ...alice, tokenId: 'ntk_1' }, 'tool run mem_set', false, token)).toBe(false);
    expect(await tokens.redeem(alice, 'tool run mem_set', false, 'sct_forged')).toBe(false);
    expect(await tokens.redeem(alice, 'tool run mem_set', false, token)).toBe(true);
    expect(await tokens.redeem(alice, 'tool run mem_set', false, token)).toBe(false);
  });

  it('expires after 300 s', async () => {
    const start = performance.now();
    const now = jest.spyOn(performance, 'now').mockReturnValue(start);
    const token = await tokens.issue(alice, 'x', false);
    now.mockReturnValue(start + 299_000);
    const second = await tokens.issue(alice, 'x', false);
    expect(await tokens.redeem(alice, 'x', false, second)).toBe(true);
    now.mockReturnValue(start + 300_001);
    expect(await tokens.redeem(alice, 'x', false, token)).toBe(false);
  });
});
