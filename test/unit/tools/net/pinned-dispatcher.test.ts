import { request } from 'undici';
import { createPinnedAgent, type BaseConnector } from '../../../../actors/tools/net/pinned-dispatcher';
import type { VettedTarget } from '../../../../actors/tools/net/target-guard';

/** A connector that records what it was asked and fails every attempt (no traffic leaves). */
function recordingConnector(): BaseConnector & { calls: Array<Record<string, unknown>> } {
  const calls: Array<Record<string, unknown>> = [];
  const fn: BaseConnector = (options, callback) => {
    calls.push({
      hostname: options.hostname,
      servername: options.servername,
      port: options.port,
      protocol: options.protocol,
    });
    callback(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), null);
  };
  return Object.assign(fn, { calls });
}

function target(url: string, host: string, isName: boolean, addresses: string[]): VettedTarget {
  return {
    url: new URL(url),
    host,
    isName,
    addresses: addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
  };
}

describe('createPinnedAgent', () => {
  it('connects to the vetted addresses in order, with the name as SNI, never resolving it', async () => {
    const base = recordingConnector();
    const agent = createPinnedAgent(
      target('https://api.example.com/', 'api.example.com', true, ['2001:4860::1', '93.184.216.34']),
      {
        connectTimeoutMs: 1000,
        baseConnector: base,
      },
    );
    try {
      await expect(request('https://api.example.com:8443/x', { dispatcher: agent })).rejects.toMatchObject({
        code: 'ECONNREFUSED',
      });
      expect(base.calls).toEqual([
        { hostname: '2001:4860::1', servername: 'api.example.com', port: '8443', protocol: 'https:' },
        { hostname: '93.184.216.34', servername: 'api.example.com', port: '8443', protocol: 'https:' },
      ]);
    } finally {
      await agent.destroy();
    }
  });

  it('sends no SNI for an address target', async () => {
    const base = recordingConnector();
    const agent = createPinnedAgent(target('https://[::1]/', '::1', false, ['::1']), {
      connectTimeoutMs: 1000,
      baseConnector: base,
    });
    try {
      await expect(request('https://[::1]/', { dispatcher: agent })).rejects.toBeDefined();
      expect(base.calls).toEqual([{ hostname: '::1', servername: undefined, port: '', protocol: 'https:' }]);
    } finally {
      await agent.destroy();
    }
  });

  it('refuses to connect to any other host than the vetted one', async () => {
    const base = recordingConnector();
    const agent = createPinnedAgent(
      target('https://api.example.com/', 'api.example.com', true, ['93.184.216.34']),
      {
        connectTimeoutMs: 1000,
        baseConnector: base,
      },
    );
    try {
      await expect(request('https://other.example.com/', { dispatcher: agent })).rejects.toMatchObject({
        code: 'ERR_UNVETTED_HOST',
      });
      expect(base.calls).toEqual([]);
    } finally {
      await agent.destroy();
    }
  });
});
