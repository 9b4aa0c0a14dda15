import { startRouterHarness, type RouterHarness } from '../tools/support/router-harness';

describe('fs_* tools through POST /mcp (embedded runtime)', () => {
  let h: RouterHarness;
  beforeAll(async () => {
    h = await startRouterHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it("lists the six tools and serves them in the calling agent's space", async () => {
    const listed = await h.http().get('/tools');
    const names = (listed.body.tools as { name: string }[])
      .map((t) => t.name)
      .filter((n) => n.includes('.fs_'));
    expect(names).toEqual([
      'platform.fs_delete',
      'platform.fs_list',
      'platform.fs_mkdir',
      'platform.fs_read',
      'platform.fs_stat',
      'platform.fs_write',
    ]);

    const { token } = await h.agent();
    const bytes = Buffer.from([0, 159, 146, 150, 255]);
    const write = await h.call(token, 'fs_write', { path: 'out/a.bin', data: bytes.toString('base64') });
    expect(write.status).toBe(200);
    expect(write.body).toMatchObject({
      success: true,
      result: { path: 'out/a.bin', size: 5, version: 1, created: true },
    });
    const read = await h.call(token, 'platform.fs_read', { path: 'out/a.bin' });
    expect(Buffer.from(read.body.result.data, 'base64').equals(bytes)).toBe(true);
    expect((await h.call(token, 'fs_list', { path: 'out' })).body.result.entries).toHaveLength(1);

    // Another agent has a space of its own.
    const other = await h.agent();
    expect((await h.call(other.token, 'fs_stat', { path: 'out/a.bin' })).status).toBe(404);
  });

  it("maps the store's errors to their statuses", async () => {
    const { token } = await h.agent();
    const bad = await h.call(token, 'fs_write', { path: '../x', content: 'x' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.stringContaining('..') });
    expect((await h.call(token, 'fs_read', { path: 'missing.txt' })).body).toMatchObject({
      code: 'NOT_FOUND',
    });
    await h.call(token, 'fs_mkdir', { path: 'd' });
    const clash = await h.call(token, 'fs_write', { path: 'd', content: 'x' });
    expect(clash.status).toBe(409);
    const big = await h.call(token, 'fs_write', {
      path: 'big',
      data: Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64'),
    });
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});
