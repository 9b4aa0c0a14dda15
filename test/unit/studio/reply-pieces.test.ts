import { EventEmitter } from 'node:events';
import { ReplyPieces } from '../../../actors/studio/reply-pieces';

/** A client whose socket can be congested on demand. */
class FakeClient extends EventEmitter {
  writableNeedDrain = false;
}

describe('ReplyPieces (the model reply pieces on their way to a slow client)', () => {
  it('sends each piece at once while the client keeps up', () => {
    const client = new FakeClient();
    const sent: string[] = [];
    const pieces = new ReplyPieces(client, (d) => sent.push(d));
    pieces.push('a');
    pieces.push('b');
    expect(sent).toEqual(['a', 'b']);
  });

  it('coalesces pieces while the client is congested and sends them on drain, in order', () => {
    const client = new FakeClient();
    const sent: string[] = [];
    const pieces = new ReplyPieces(client, (d) => sent.push(d));
    pieces.push('one ');
    client.writableNeedDrain = true;
    for (const p of ['two ', 'three ', 'four']) pieces.push(p);
    expect(sent).toEqual(['one ']);
    expect(client.listenerCount('drain')).toBe(1);
    client.writableNeedDrain = false;
    client.emit('drain');
    expect(sent).toEqual(['one ', 'two three four']);
  });

  it('bounds the pending text (drops beyond it) and a forced flush sends it even when congested', () => {
    const client = new FakeClient();
    client.writableNeedDrain = true;
    const sent: string[] = [];
    const pieces = new ReplyPieces(client, (d) => sent.push(d), 10);
    for (let i = 0; i < 5; i++) pieces.push('abcd');
    expect(pieces.dropped).toBe(12);
    pieces.flush(true);
    expect(sent).toEqual(['abcdabcd']);
  });

  it('sends nothing once closed (after the final reply, or when the client left)', () => {
    const client = new FakeClient();
    const sent: string[] = [];
    const pieces = new ReplyPieces(client, (d) => sent.push(d));
    pieces.close();
    pieces.push('late');
    pieces.flush(true);
    expect(sent).toEqual([]);
  });
});
