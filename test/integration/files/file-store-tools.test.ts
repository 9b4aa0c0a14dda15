import { z } from 'zod';
import { fsTools } from '../../../actors/tools/files/fs.tools';
import type { AnyToolDeclaration, ToolContext } from '../../../actors/tools/router/tool-declaration';
import { parseToolInput } from '../../../actors/tools/router/tool-input';
import { silentLogger } from '../../../src/logging/logger';
import { useFileStore } from './file-store-support';

describe('fs_* tools over the file store', () => {
  const target = useFileStore();

  const contextOf = (agentId: string): ToolContext =>
    ({
      principal: { subjectType: 'agent', agentId, via: 'bearer' },
      agent: { id: agentId, agentRef: `agref-${agentId}`, accountId: 'acc_tools', allowedDomains: [] },
      services: { documents: target().documents, logger: silentLogger, files: target().files },
      signal: new AbortController().signal,
      logger: silentLogger,
    }) as unknown as ToolContext;

  const byName = new Map<string, AnyToolDeclaration>(fsTools.map((t) => [t.name, t]));
  /** As the router does it: validate with the declared schema, then run. */
  const call = async (name: string, input: unknown, agentId = 'agt_tools') => {
    const tool = byName.get(name) as AnyToolDeclaration;
    return (await tool.run(parseToolInput(name, tool.input, input), contextOf(agentId))) as Record<
      string,
      unknown
    >;
  };

  it('declares six tools with object input schemas; only the reads are read-only', () => {
    expect([...byName.keys()].sort()).toEqual([
      'fs_delete',
      'fs_list',
      'fs_mkdir',
      'fs_read',
      'fs_stat',
      'fs_write',
    ]);
    for (const tool of fsTools) {
      expect(z.toJSONSchema(tool.input, { io: 'input' })).toMatchObject({ type: 'object' });
    }
    expect(
      fsTools
        .filter((t) => !t.mutating)
        .map((t) => t.name)
        .sort(),
    ).toEqual(['fs_list', 'fs_read', 'fs_stat']);
  });

  it("write, read, stat, list, mkdir, delete in the agent's own space", async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 251, 252]);
    expect(await call('fs_write', { path: 'out/data.bin', data: bytes.toString('base64') })).toMatchObject({
      path: 'out/data.bin',
      kind: 'file',
      size: 6,
      version: 1,
      created: true,
      previousVersion: null,
      contentEncoding: 'base64',
    });
    const read = await call('fs_read', { path: 'out/data.bin' });
    expect(Buffer.from(read.data as string, 'base64').equals(bytes)).toBe(true);
    expect(await call('fs_write', { path: 'out/note.txt', content: 'hi' })).toMatchObject({
      contentEncoding: 'utf8',
    });
    expect(await call('fs_write', { path: 'out/note.txt', content: 'hi again' })).toMatchObject({
      version: 2,
      created: false,
      previousVersion: 1,
    });
    expect(await call('fs_read', { path: 'out/note.txt' })).toMatchObject({
      data: 'hi again',
      contentEncoding: 'utf8',
    });
    expect(await call('fs_read', { path: 'out/note.txt', encoding: 'base64' })).toMatchObject({
      data: Buffer.from('hi again').toString('base64'),
    });
    expect(await call('fs_stat', { path: 'out' })).toMatchObject({ path: 'out', kind: 'dir' });
    expect(await call('fs_mkdir', { path: 'out/empty/' })).toMatchObject({
      path: 'out/empty',
      kind: 'dir',
      created: true,
    });
    const listed = await call('fs_list', { path: 'out' });
    expect((listed.entries as { path: string }[]).map((e) => e.path)).toEqual([
      'out/data.bin',
      'out/empty',
      'out/note.txt',
    ]);
    expect(listed.nextCursor).toBeNull();
    expect(((await call('fs_list', {})).entries as { path: string }[]).map((e) => e.path)).toEqual(['out']);
    expect(await call('fs_delete', { path: 'out/note.txt' })).toEqual({
      path: 'out/note.txt',
      kind: 'file',
      deleted: true,
      version: 3,
      previousVersion: 2,
    });
    await expect(call('fs_read', { path: 'out/note.txt' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    // Another agent does not see this agent's files.
    await expect(call('fs_stat', { path: 'out' }, 'agt_other')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('clear errors: invalid input, missing path, file/directory clash, size cap', async () => {
    await expect(call('fs_write', { path: '../escape', content: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'Invalid fs_write input: path: path must not contain .. segments',
    });
    await expect(call('fs_read', { path: '/etc/passwd' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(call('fs_write', { path: 'x', content: 'a', data: 'YQ==' })).rejects.toMatchObject({
      code: 'VALIDATION_ERROR',
    });
    await expect(call('fs_stat', { path: 'nothing/here' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'No such file or directory: nothing/here',
    });
    await call('fs_mkdir', { path: 'clash' });
    await expect(call('fs_write', { path: 'clash', content: 'x' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(call('fs_read', { path: 'clash' })).rejects.toMatchObject({ code: 'CONFLICT' });
    await call('fs_write', { path: 'full/x.txt', content: 'x' });
    await expect(call('fs_delete', { path: 'full' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: 'full is not empty',
    });
    await expect(
      call('fs_write', { path: 'huge.bin', data: Buffer.alloc(5 * 1024 * 1024 + 1).toString('base64') }),
    ).rejects.toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});
