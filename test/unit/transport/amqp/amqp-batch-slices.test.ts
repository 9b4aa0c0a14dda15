import { batchSlices } from '../../../../src/transport/amqp/amqp-batch-slices';
import { commandEnvelope } from '../../../support/envelopes';

const texts = (content: string) => batchSlices(Buffer.from(content)).map((b) => b.toString('utf8'));

describe('batchSlices', () => {
  it('cuts each element of a batch out as its bytes came', () => {
    const [a, b] = [commandEnvelope('k:1', { id: 'a' }), commandEnvelope('k:2', { id: 'b' })].map((e) =>
      JSON.stringify(e),
    );
    expect(texts(`[${a},${b}]`)).toEqual([a, b]);
    expect(texts(` [ ${a} ,\n\t${b}\r\n] `)).toEqual([a, b]);
  });

  it('is not fooled by brackets, commas, quotes and escapes inside strings', () => {
    const tricky = JSON.stringify({ s: '],[{"x":1},\\"}', t: '\\', u: 'é,ü]' });
    expect(texts(`[${tricky},2,"a,b",[1,[2,3]],{"k":[]},null]`)).toEqual([
      tricky,
      '2',
      '"a,b"',
      '[1,[2,3]]',
      '{"k":[]}',
      'null',
    ]);
  });

  it('cuts out an element of any depth without recursion', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const slices = batchSlices(Buffer.from(`[{"v":1},${deep},3]`));
    expect(slices.map((s) => s.length)).toEqual([7, deep.length, 1]);
    expect(slices[1].toString('utf8')).toBe(deep);
  });

  it('keeps multi-byte characters whole', () => {
    const content = Buffer.from('["é,ü","日本",{"k":"💡"}]');
    expect(batchSlices(content).map((b) => b.toString('utf8'))).toEqual(['"é,ü"', '"日本"', '{"k":"💡"}']);
  });
});
