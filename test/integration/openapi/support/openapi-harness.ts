import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Express } from 'express';
import request from 'supertest';
import { startRuntime, type Runtime } from '../../../../src/boot/runtime';
import { loadConfig } from '../../../../src/config/load-config';
import { silentLogger } from '../../../../src/logging/logger';
import { openApiPath, type OpenApiDocument } from '../../../../src/http/openapi/document';

/** A JSON pointer token: `/` and `~` escaped (RFC 6901). */
const token = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

export interface OpenApiHarness {
  runtime: Runtime;
  http: () => ReturnType<typeof request>;
  /** The Express app the runtime serves. */
  app: Express;
  /** `GET /openapi.json`, as served. */
  document: OpenApiDocument;
  /**
   * Validates an answer against the schema the served document gives for this route and status
   * (`$ref`s to shared error answers followed); throws with ajv's errors when it does not match.
   */
  expectDocumented(method: string, expressPath: string, res: { status: number; body: unknown }): void;
  /** Compiles the schema at a JSON pointer of the document (`#/paths/...`); throws when it cannot. */
  compile(pointer: string): void;
  stop(): Promise<void>;
}

export async function startOpenApiHarness(env: Record<string, string> = {}): Promise<OpenApiHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ars-openapi-'));
  const runtime = await startRuntime(
    loadConfig({ ...env, DATA_DIR: dir, PORT: '0', JWT_SECRET: randomBytes(24).toString('hex') }),
    silentLogger,
    { identity: { bcryptCost: 4, limits: { signupPerIp: { points: 10_000, durationSec: 600 } } } },
  );
  const url = runtime.http!.url;
  const http = () => request(url);
  const app = runtime.http!.app;
  const served = await http().get('/openapi.json');
  if (served.status !== 200) throw new Error(`GET /openapi.json: ${served.status}`);
  const document = served.body as OpenApiDocument;

  // The document itself is the schema root, so that its `#/components/...` references resolve.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: 'openapi.json' });

  const expectDocumented: OpenApiHarness['expectDocumented'] = (method, expressPath, res) => {
    const where = `${method.toUpperCase()} ${expressPath} ${res.status}`;
    const op = document.paths[openApiPath(expressPath)]?.[method.toLowerCase()] as
      { responses: Record<string, { $ref?: string; content?: Record<string, unknown> }> } | undefined;
    if (!op) throw new Error(`${where}: not in the document`);
    let pointer = `#/paths/${token(openApiPath(expressPath))}/${method.toLowerCase()}/responses/${res.status}`;
    let answer = op.responses[String(res.status)];
    if (!answer) throw new Error(`${where}: status not documented (${Object.keys(op.responses).join(', ')})`);
    if (answer.$ref) {
      pointer = answer.$ref;
      const name = answer.$ref.split('/').pop()!;
      answer = (document.components as { responses: Record<string, typeof answer> }).responses[name]!;
    }
    if (!answer.content?.['application/json']) throw new Error(`${where}: no JSON body documented`);
    const validate = ajv.getSchema(`openapi.json${pointer}/content/application~1json/schema`);
    if (!validate) throw new Error(`${where}: schema not found at ${pointer}`);
    if (!validate(res.body)) {
      throw new Error(
        `${where} does not match the document: ${ajv.errorsText(validate.errors)}\n` +
          JSON.stringify(res.body).slice(0, 2000),
      );
    }
  };

  return {
    runtime,
    http,
    app,
    document,
    expectDocumented,
    compile: (pointer) => {
      if (!ajv.getSchema(`openapi.json${pointer}`)) throw new Error(`no schema at ${pointer}`);
    },
    stop: async () => {
      await runtime.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
