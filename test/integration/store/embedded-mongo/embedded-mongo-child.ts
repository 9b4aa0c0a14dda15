// Child process for the durability tests: runs the embedded server on a data directory and prints
// `{"url": ...}` once it listens. SIGTERM closes it cleanly; the tests also kill it with SIGKILL.
import { startEmbeddedMongo } from '../../../../src/store/embedded-mongo';

async function main(): Promise<void> {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: embedded-mongo-child.ts <dir>');
  const server = await startEmbeddedMongo({ dir, port: 0 });
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  process.on('SIGTERM', () => {
    void server.close().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${String((err as Error)?.stack ?? err)}\n`);
  process.exit(1);
});
