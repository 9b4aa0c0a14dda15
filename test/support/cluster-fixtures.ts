import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';

/** The data directories of one test's nodes, made under the system's temp dir and removed together. */
export function tempDirs(label: string): { make(name: string): string; removeAll(): void } {
  const dirs: string[] = [];
  return {
    make(name) {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ars-${label}-${name}-`));
      dirs.push(dir);
      return dir;
    },
    removeAll() {
      for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Signs a retail Pro account up at a running front door and answers its bearer token. */
export async function signupBearer(url: string, email: string): Promise<string> {
  const signup = await request(url).post('/api/signup').send({
    email,
    password: 'correct horse battery',
    accountType: 'retail',
    selectedPlan: 'retail_pro',
  });
  if (signup.status !== 201) throw new Error(`signup: ${signup.status} ${signup.text}`);
  return signup.body.credentials.bearerToken as string;
}
