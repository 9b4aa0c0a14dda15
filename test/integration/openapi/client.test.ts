import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createApiClient } from '../../../client';
import { startOpenApiHarness, type OpenApiHarness } from './support/openapi-harness';

describe('the typed client (client/)', () => {
  const root = path.join(__dirname, '..', '..', '..');
  const schemaFile = path.join(root, 'client', 'schema.d.ts');

  // In a child process: openapi-typescript loads ES modules, which jest's module system does not.
  const check = () =>
    promisify(execFile)(
      process.execPath,
      ['-r', './test/support/ts-register.js', 'client/generate.ts', '--check'],
      { cwd: root },
    );

  it('client/schema.d.ts is generated from the current contracts (else: npm run client:generate)', async () => {
    const committed = fs.readFileSync(schemaFile, 'utf8');
    expect(committed).toContain('"/api/executions/{id}"');
    await expect(check()).resolves.toMatchObject({ stdout: expect.stringContaining('up to date') });
  }, 120_000);

  describe('against a running service', () => {
    let h: OpenApiHarness;
    beforeAll(async () => {
      h = await startOpenApiHarness();
    });
    afterAll(() => h?.stop());

    it('signs up, writes and lists files, reads an execution, and gets typed errors', async () => {
      const baseUrl = h.runtime.http!.url;
      const anonymous = createApiClient({ baseUrl });
      const signup = await anonymous.POST('/api/signup', {
        body: {
          email: `client-${Date.now()}@example.com`,
          password: 'correct horse battery',
          accountType: 'retail',
          selectedPlan: 'retail_pro',
        },
      });
      expect(signup.response.status).toBe(201);
      const token = signup.data!.credentials.bearerToken!;

      const api = createApiClient({ baseUrl, token });
      const written = await api.POST('/api/files', { body: { path: 'c/hello.txt', data: 'hi' } });
      expect(written.data?.entry.path).toBe('c/hello.txt');
      const files = await api.GET('/api/files', { params: { query: { prefix: 'c' } } });
      expect(files.data && 'entries' in files.data ? files.data.entries.map((e) => e.path) : []).toEqual([
        'c/hello.txt',
      ]);
      const id = written.data!.execution.id;
      const detail = await api.GET('/api/executions/{id}', { params: { path: { id } } });
      expect(detail.data?.execution).toMatchObject({ id, type: 'FILE_WRITE', status: 'COMPLETED' });

      const refused = await anonymous.GET('/api/executions', {});
      expect(refused.response.status).toBe(401);
      expect(refused.error?.code).toBe('UNAUTHORIZED');
      const invalid = await api.POST('/api/memory', { body: { key: '', content: 1 } });
      expect(invalid.error).toMatchObject({ code: 'VALIDATION_ERROR', error: expect.any(String) });
    });
  });
});
