import { randomBytes } from 'node:crypto';
import { describeWithService } from '../../support/services';
import {
  bearer,
  startWorkspaceHarness,
  type TestAccount,
  type TestAgent,
  type WorkspaceHarness,
} from './support/workspace-harness';

type Visibility = 'private' | 'workspace' | 'public';
const LEVELS: Visibility[] = ['private', 'workspace', 'public'];

/**
 * The visibility rule over HTTP (docs/workspaces.md): A owns a shared workspace W with B as a
 * member; C is outside. A writes files and memory entries at each level in W. Every read path
 * (list, text and prefix search, preview, summarize, memory list, search and export) must show
 * B and B's agent exactly the workspace and public ones, C and C's agent the public ones; after B
 * is removed from W, B and its agent lose the workspace ones at once.
 */
function visibilityMatrix(title: string, env: () => Record<string, string>) {
  describe(title, () => {
    let h: WorkspaceHarness;
    let a: TestAccount;
    let b: TestAccount;
    let c: TestAccount;
    let bBot: TestAgent;
    let cBot: TestAgent;
    let ws: string;
    let memberB: string;
    // Unique per run: searches must not find another suite's entries.
    const tag = `vm${randomBytes(4).toString('hex')}`;
    const filePath = (v: Visibility) => `${tag}/${v}.txt`;
    const fileText = (v: Visibility) => `${tag} ${v} file body\nsecond line\n`;
    const memKey = (v: Visibility) => `${tag}-${v}`;

    beforeAll(async () => {
      h = await startWorkspaceHarness(env());
      [a, b, c] = await Promise.all([h.account(), h.account(), h.account()]);
      [bBot, cBot] = await Promise.all([h.agent(b), h.agent(c)]);
      ws = await h.workspace(a, 'Shared W');
      memberB = await h.addMember(a, ws, { email: b.email });
      for (const v of LEVELS) {
        const file = await h
          .http()
          .post('/api/files')
          .set(bearer(a.token))
          .send({ path: filePath(v), data: fileText(v), visibility: v, workspaceId: ws });
        expect(file.status).toBe(201);
        const mem = await h
          .http()
          .post('/api/memory')
          .set(bearer(a.token))
          .send({
            key: memKey(v),
            content: { note: `${tag} ${v} memory` },
            visibility: v,
            workspaceId: ws,
            tags: [tag],
          });
        expect(mem.status).toBe(201);
      }
    }, 90_000);
    afterAll(async () => {
      await h?.stop();
    });

    const get = (token: string, url: string, query: Record<string, string> = {}) =>
      h.http().get(url).query(query).set(bearer(token));

    /** Every read path, as the set of levels it shows this viewer (each path checked on its own). */
    async function seenBy(token: string): Promise<Record<string, Visibility[]>> {
      const levelsOfPaths = (paths: string[]) => LEVELS.filter((v) => paths.includes(filePath(v)));
      const levelsOfKeys = (keys: string[]) => LEVELS.filter((v) => keys.includes(memKey(v)));
      const paths = async (query: Record<string, string>) => {
        const res = await get(token, '/api/files', query);
        expect(res.status).toBe(200);
        return levelsOfPaths(res.body.entries.map((e: { path: string }) => e.path));
      };
      const keys = async (query: Record<string, string>) => {
        const res = await get(token, '/api/memory', query);
        expect(res.status).toBe(200);
        return levelsOfKeys(res.body.entries.map((e: { key: string }) => e.key));
      };
      const readable = async (action: 'preview' | 'summarize') => {
        const shown: Visibility[] = [];
        for (const v of LEVELS) {
          const res = await get(token, '/api/files', { action, path: filePath(v) });
          if (res.status === 200) {
            if (action === 'preview') expect(res.body.content).toBe(fileText(v));
            else expect(res.body.summary.firstLines[0]).toBe(`${tag} ${v} file body`);
            shown.push(v);
          } else {
            expect(res.status).toBe(404);
            expect(JSON.stringify(res.body)).not.toContain(`${v} file body`);
          }
        }
        return shown;
      };
      return {
        filesList: await paths({ limit: '1000' }),
        filesPrefix: await paths({ prefix: tag }),
        filesText: await paths({ text: tag.toUpperCase() }),
        filesWorkspace: await paths({ prefix: tag, workspaceId: ws }),
        preview: await readable('preview'),
        summarize: await readable('summarize'),
        memoryList: await keys({ limit: '1000' }),
        memorySearch: await keys({ search: tag }),
        memoryExport: await keys({ export: '1', search: tag }),
      };
    }

    const everywhere = (levels: Visibility[]) => ({
      filesList: levels,
      filesPrefix: levels,
      filesText: levels,
      filesWorkspace: levels,
      preview: levels,
      summarize: levels,
      memoryList: levels,
      memorySearch: levels,
      memoryExport: levels,
    });

    it('the owner sees every level', async () => {
      expect(await seenBy(a.token)).toEqual(everywhere(LEVELS));
    });

    it('a member (and its agent) sees workspace and public entries, never private ones', async () => {
      expect(await seenBy(b.token)).toEqual(everywhere(['workspace', 'public']));
      expect(await seenBy(bBot.key)).toEqual(everywhere(['workspace', 'public']));
      // Shown, not owned.
      const res = await get(b.token, '/api/files', { prefix: tag });
      expect(res.body.entries.every((e: { owned: boolean }) => !e.owned)).toBe(true);
    });

    it('an outsider (and its agent) sees public entries only', async () => {
      expect(await seenBy(c.token)).toEqual(everywhere(['public']));
      expect(await seenBy(cBot.key)).toEqual(everywhere(['public']));
      // Naming the workspace does not help an outsider.
      expect(
        (
          await get(c.token, '/api/files', {
            action: 'preview',
            path: filePath('workspace'),
            workspaceId: ws,
          })
        ).status,
      ).toBe(404);
    });

    it("the fs_* tools work in the agent's own space: no other space is reachable through /mcp", async () => {
      const call = (tool: string, input: object) =>
        h.http().post('/mcp').set(bearer(bBot.key)).send({ tool, input });
      for (const v of LEVELS) {
        const read = await call('fs_read', { path: filePath(v) });
        expect(read.body).toMatchObject({ code: 'NOT_FOUND' });
      }
      const listed = await call('fs_list', { path: '', recursive: true });
      expect(listed.status).toBe(200);
      expect(JSON.stringify(listed.body)).not.toContain(tag);
    });

    it('a member removed from the workspace loses its entries at once', async () => {
      const removed = await h.http().delete(`/api/workspaces/${ws}/members/${memberB}`).set(bearer(a.token));
      expect(removed.status).toBe(200);
      expect(await seenBy(b.token)).toEqual(everywhere(['public']));
      expect(await seenBy(bBot.key)).toEqual(everywhere(['public']));
      // And can no longer write into it.
      const write = await h
        .http()
        .post('/api/files')
        .set(bearer(b.token))
        .send({ path: 'x.txt', data: 'x', workspaceId: ws });
      expect(write.status).toBe(404);
      const mem = await h
        .http()
        .post('/api/memory')
        .set(bearer(b.token))
        .send({ key: 'x', content: 1, workspaceId: ws });
      expect(mem.status).toBe(404);

      // Added back: visible again at once.
      memberB = await h.addMember(a, ws, { email: b.email });
      expect(await seenBy(b.token)).toEqual(everywhere(['workspace', 'public']));
    });
  });
}

visibilityMatrix('visibility matrix over HTTP (embedded cache)', () => ({}));

describeWithService('redis', 'visibility matrix over HTTP', (url) => {
  visibilityMatrix('with the membership cache on Redis', () => ({ REDIS_URL: url }));
});
