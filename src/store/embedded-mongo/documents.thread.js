// The embedded document server on a thread of its own (started by ./thread.ts). Plain JavaScript so
// that the same file starts from a build and from the sources under jest: from a build, ./index.js
// is beside it; from the sources, the TypeScript is compiled as it loads, by the tests' loader.
const fs = require('node:fs');
const path = require('node:path');
const { parentPort, workerData } = require('node:worker_threads');

if (!fs.existsSync(path.join(__dirname, 'index.js'))) {
  require(path.resolve(__dirname, '../../../test/support/ts-register.js'));
}
const { startEmbeddedMongo, commandCounts } = require('./index');
const { createLogger } = require('../../logging/logger');

// Each line goes to the main thread, which writes it with the node's own logger and format.
const logger = createLogger({
  level: workerData.logLevel || 'info',
  destination: { write: (line) => parentPort.postMessage({ type: 'log', line }) },
});

startEmbeddedMongo({ dir: workerData.dir, logger }).then(
  (server) => {
    let closing;
    parentPort.on('message', (m) => {
      if (m && m.type === 'counts')
        parentPort.postMessage({ type: 'counts', id: m.id, counts: { ...commandCounts } });
      if (m && m.type === 'close') {
        closing ??= server.close().then(
          () => parentPort.postMessage({ type: 'closed' }),
          (err) => parentPort.postMessage({ type: 'closed', error: String((err && err.message) || err) }),
        );
      }
    });
    parentPort.postMessage({ type: 'ready', url: server.url, port: server.port });
  },
  (err) => parentPort.postMessage({ type: 'failed', error: String((err && err.message) || err) }),
);
