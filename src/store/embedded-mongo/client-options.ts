import type { MongoClientOptions } from 'mongodb';

/**
 * Driver options for talking to the embedded server (merge them into your own options):
 *
 * - `directConnection: true`: it is one standalone server; skip topology discovery.
 * - `retryWrites: false`: a standalone cannot take transaction numbers (the driver would not send
 *   them anyway; saying so keeps the intent explicit and the behaviour identical across drivers).
 * - `serverMonitoringMode: 'poll'`: the server does not offer awaitable (streaming) hello; polling is
 *   what the driver would fall back to, stated up front.
 * - `compressors: []`: the server does not compress; loopback does not need it.
 * - `serverSelectionTimeoutMS: 5000`: a local server that is not there will not appear later; fail
 *   fast instead of waiting the default 30 s.
 */
export const embeddedClientOptions: MongoClientOptions = Object.freeze({
  directConnection: true,
  retryWrites: false,
  serverMonitoringMode: 'poll',
  compressors: [],
  serverSelectionTimeoutMS: 5000,
}) as MongoClientOptions;
