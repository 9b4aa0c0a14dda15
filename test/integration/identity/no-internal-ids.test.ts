import type { Response } from 'supertest';
import { agentsCollection } from '../../../actors/identity/agents.collection';
import { bearer, startIdentityHarness, type IdentityHarness } from './support/identity-harness';
import { subjectOf } from '../../support/token-claims';

let h: IdentityHarness;

beforeAll(async () => {
  h = await startIdentityHarness();
});
afterAll(async () => {
  await h.stop();
});

/**
 * Drives every route of agents and named tokens (successes and errors) and asserts that no response
 * body carries an internal id: no `agt_` (agents) or `acc_` (accounts) prefix, and none of the
 * internal ids actually stored.
 */
describe('no response body contains an internal id', () => {
  const bodies: { what: string; text: string }[] = [];
  const keep = (what: string) => (res: Response) => {
    bodies.push({ what, text: res.text });
    return res;
  };

  it('across every agents and bearer-tokens route', async () => {
    const { token } = await h.account();
    const other = await h.account();
    const auth = bearer(token);
    const http = h.http;

    // Registration and the registration record.
    const reg = keep('register')(
      await http().post('/register').send({ name: 'Scan bot', agentId: 'scan-bot' }),
    );
    keep('register dup name')(await http().post('/register').send({ name: 'Scan bot' }));
    keep('register dup id')(await http().post('/register').send({ name: 'Scan bot 2', agentId: 'scan-bot' }));
    keep('register invalid')(
      await http()
        .post('/register')
        .send({ name: '', allowedTools: ['nope'] }),
    );
    keep('me')(await http().get('/agent/me').set('Authorization', bearer(reg.body.token)));
    keep('me account')(await http().get('/agent/me').set('Authorization', auth));
    keep('me none')(await http().get('/agent/me'));

    // Deployed agents.
    const parent = keep('create agent')(
      await http().post('/api/agents').set('Authorization', auth).send({ name: 'P' }),
    );
    keep('create sub')(
      await http()
        .post('/api/agents')
        .set('Authorization', auth)
        .send({ name: 'S', parentAgentRef: parent.body.agent.agentRef }),
    );
    keep('create dup')(await http().post('/api/agents').set('Authorization', auth).send({ name: 'p' }));
    keep('create foreign parent')(
      await http()
        .post('/api/agents')
        .set('Authorization', bearer(other.token))
        .send({ name: 'X', parentAgentRef: parent.body.agent.agentRef }),
    );
    keep('create invalid')(
      await http().post('/api/agents').set('Authorization', auth).send({ description: 1 }),
    );
    keep('list agents')(await http().get('/api/agents').set('Authorization', auth));
    keep('list agents by key')(
      await http().get('/api/agents').set('Authorization', bearer(parent.body.apiKey)),
    );
    keep('list agents self-registered')(
      await http().get('/api/agents').set('Authorization', bearer(reg.body.token)),
    );
    keep('me deployed')(await http().get('/agent/me').set('Authorization', bearer(parent.body.apiKey)));

    // Named tokens.
    const created = keep('create token')(
      await http()
        .post('/api/bearer-tokens')
        .set('Authorization', auth)
        .send({ name: 't', scopes: ['workflow'] }),
    );
    const id = created.body.token.id as string;
    keep('create token dup')(
      await http().post('/api/bearer-tokens').set('Authorization', auth).send({ name: 'T' }),
    );
    keep('list tokens')(await http().get('/api/bearer-tokens').set('Authorization', auth));
    keep('scope denied')(
      await http().get('/api/agents').set('Authorization', bearer(created.body.bearerToken)),
    );
    keep('rename')(
      await http().patch('/api/bearer-tokens').set('Authorization', auth).send({ id, name: 'u' }),
    );
    keep('rescope')(
      await http()
        .patch('/api/bearer-tokens')
        .set('Authorization', auth)
        .send({ id, scopes: ['api'] }),
    );
    const rotated = keep('rotate')(
      await http().patch('/api/bearer-tokens').set('Authorization', auth).send({ id, action: 'rotate' }),
    );
    keep('old value')(
      await http().get('/api/bearer-tokens').set('Authorization', bearer(created.body.bearerToken)),
    );
    keep('foreign patch')(
      await http()
        .patch('/api/bearer-tokens')
        .set('Authorization', bearer(other.token))
        .send({ id, action: 'revoke' }),
    );
    keep('agent key on tokens')(
      await http().get('/api/bearer-tokens').set('Authorization', bearer(parent.body.apiKey)),
    );
    keep('delete')(await http().delete('/api/bearer-tokens').set('Authorization', auth).send({ id }));
    keep('revoked value')(
      await http().get('/api/agents').set('Authorization', bearer(rotated.body.bearerToken)),
    );
    keep('patch revoked')(
      await http().patch('/api/bearer-tokens').set('Authorization', auth).send({ id, name: 'v' }),
    );
    keep('delete unknown')(await http().delete('/api/bearer-tokens?id=ntk_nope').set('Authorization', auth));

    // The internal ids that exist now.
    const agentIds = (await h.runtime.documents.repository(agentsCollection).find({})).map((d) => d._id);
    const accountIds = [token, other.token].map((t) => subjectOf(t, h.runtime.secrets.jwtSecret));
    expect(agentIds.length).toBeGreaterThanOrEqual(3);
    const forbidden = [...agentIds, ...accountIds, 'scan-bot'];

    expect(bodies.length).toBeGreaterThan(25);
    for (const { what, text } of bodies) {
      expect({ what, leaks: /\bagt_|\bacc_/.test(text) }).toEqual({ what, leaks: false });
      for (const id of forbidden)
        expect({ what, contains: text.includes(id) }).toEqual({ what, contains: false });
    }
  });
});
