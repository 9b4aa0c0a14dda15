import fs from 'node:fs';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { OPENAPI_INFO, routeContracts } from '../actors/contracts';
import { serviceDocument } from '../src/http/openapi/openapi.route';

/** Where the generated types live, beside the client (committed: the console and users import them). */
export const SCHEMA_FILE = path.join(__dirname, 'schema.d.ts');

const HEADER =
  "/**\n * The types of the service's HTTP API, generated from its OpenAPI document (GET /openapi.json)\n" +
  " * by `npm run client:generate`. Do not edit: change a route's contract and generate again\n" +
  ' * (docs/openapi.md).\n */\n\n';

/**
 * The text of `client/schema.d.ts` for the current contracts: the document is built in-process,
 * exactly as the service serves it, and turned into types by openapi-typescript.
 */
export async function generateClientSchema(): Promise<string> {
  const document = serviceDocument(OPENAPI_INFO, routeContracts);
  // The version changes on every release and says nothing about the types: left out of the file.
  const ast = await openapiTS({ ...document, info: { ...OPENAPI_INFO, version: '0' } } as never, {
    alphabetize: false,
    exportType: false,
  });
  return HEADER + astToString(ast);
}

/** `--check`: exit 1 when the committed file differs from what the contracts generate (CI, tests). */
async function main(check: boolean): Promise<void> {
  const text = await generateClientSchema();
  const file = path.relative(process.cwd(), SCHEMA_FILE);
  if (check) {
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
    if (committed === text) return void process.stdout.write(`${file} is up to date\n`);
    process.stderr.write(`${file} is stale: run \`npm run client:generate\` and commit it\n`);
    process.exitCode = 1;
    return;
  }
  fs.writeFileSync(SCHEMA_FILE, text);
  process.stdout.write(`wrote ${file} (${text.length} bytes)\n`);
}

if (require.main === module) {
  main(process.argv.includes('--check')).catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  });
}
