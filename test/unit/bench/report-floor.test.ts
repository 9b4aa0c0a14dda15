import type { IntentFigures } from '../../../bench/streams/intent-streams';
import { bareSection, reachSection, type BareFigures } from '../../../bench/streams/report-floor';

/**
 * bench:streams says, beside its figures, whether the first-event target is within the machine's
 * reach: the bare server's p99 under the same client is the floor no service can beat.
 */

function burst(firstP99: number, doneP99 = firstP99): IntentFigures {
  const spread = (p99: number) => ({ n: 1000, p50: Math.round(p99 / 2), p99, max: p99 + 5 });
  return {
    streams: 1000,
    message: 'status',
    firstEventMs: spread(firstP99),
    doneMs: spread(doneP99),
    wallMs: doneP99 + 10,
    completed: 1000,
    sequences: { 'execution,reply,done:COMPLETED': 1000 },
    errors: { non200: 0, missingDone: 0, outOfOrder: 0, transport: 0 },
    samples: [],
  };
}

function floorOf(warmP99s: number[], kept: number): BareFigures {
  const warmBursts = warmP99s.map((p) => burst(p));
  return { cold: burst(600), warm: warmBursts[kept]!, warmBursts, cpuMs: { cold: 560, warm: 470 } };
}

describe('bench:streams: what the machine allows', () => {
  it('says the target is out of reach when the floor alone is above it, with the ratios to the floor', () => {
    const text = reachSection(
      floorOf([454, 500, 430], 0),
      [{ layout: 'amqp', service: burst(692), frontDoor: burst(589) }],
      300,
    ).join('\n');
    expect(text).toContain('The floor alone is above the target (454 ms > 300 ms)');
    expect(text).toContain('| amqp | 692 | 589 | 454 | 1.52 | 1.30 | 103 |');
  });

  it('gives the room the floor leaves when it is below the target', () => {
    const text = reachSection(floorOf([238], 0), [{ layout: 'in-process', service: burst(317) }], 300).join(
      '\n',
    );
    expect(text).toContain('The floor leaves the service 62 ms within the target (300 ms).');
    expect(text).not.toContain('The floor alone is above the target');
    expect(text).toContain('| in-process | 317 | n/a | 238 | 1.33 | n/a | n/a |');
  });

  it('lists every warm burst of the floor and marks the one kept', () => {
    const text = bareSection(floorOf([454, 500, 430], 0)).join('\n');
    expect(text).toContain('| warm (median of 3 bursts) | 227 | 454 | 454 | 470 |');
    expect(text).toContain('first event p99 ms (kept: the median): 454 (kept), 500, 430.');
  });
});
