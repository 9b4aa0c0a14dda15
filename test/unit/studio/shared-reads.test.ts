import { principalKey, SharedReads } from '../../../actors/studio/shared-reads';

describe('SharedReads', () => {
  it('gives identical reads in flight one fetch, and fetches again once it settled', async () => {
    const reads = new SharedReads<number>();
    let fetches = 0;
    let release!: (n: number) => void;
    const fetch = () => {
      fetches += 1;
      return new Promise<number>((resolve) => (release = resolve));
    };
    const a = reads.read('k', fetch);
    const b = reads.read('k', fetch);
    expect(fetches).toBe(1);
    release(7);
    await expect(Promise.all([a, b])).resolves.toEqual([7, 7]);
    const c = reads.read('k', fetch);
    expect(fetches).toBe(2); // nothing kept: a later read sees a later state
    release(8);
    await expect(c).resolves.toBe(8);
  });

  it('keeps different keys apart and shares a failure only with the reads that joined it', async () => {
    const reads = new SharedReads<string>();
    const failing = reads.read('x', () => Promise.reject(new Error('down')));
    const other = reads.read('y', () => Promise.resolve('fine'));
    await expect(failing).rejects.toThrow('down');
    await expect(other).resolves.toBe('fine');
    await expect(reads.read('x', () => Promise.resolve('back'))).resolves.toBe('back');
  });

  it('tells principals apart by who they are and the scopes they carry', () => {
    const base = { subjectType: 'account', via: 'bearer', accountId: 'acc_1' };
    expect(principalKey(base)).toBe(principalKey({ ...base }));
    expect(principalKey(base)).not.toBe(principalKey({ ...base, scopes: ['workflow'] }));
    expect(principalKey(base)).not.toBe(principalKey({ ...base, accountId: 'acc_2' }));
    expect(principalKey(base)).not.toBe(principalKey({ ...base, tokenId: 'tok_1' }));
  });
});
