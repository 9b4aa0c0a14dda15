import type { Cluster } from './cluster';
import { FRONT_DOOR_PATH } from './front-door.route';
import { medianBy } from './http-client';
import { runIntentStreams, type IntentFigures } from './intent-streams';
import type { Target } from './raw-stream-client';
import type { LayoutFigures } from './report';
import { countWork, type WorkPerRequest } from './work-counts';

/** One burst's figures and the CPU of every process over it, ms. */
interface Burst {
  figures: IntentFigures;
  cpuMs: Record<string, number>;
}

/** The burst of median first-event p99. */
const medianBurst = (bursts: readonly Burst[]) => medianBy(bursts, (b) => b.figures.firstEventMs.p99);

const errorsOf = (f: IntentFigures) => JSON.stringify(f.errors);

export interface IntentPartOptions {
  cluster: Pick<Cluster, 'cpuNow' | 'cpuSince' | 'processes' | 'nodes'>;
  target: Target;
  /** The account of the bursts, and another one that warms the code paths up first. */
  token: string;
  otherToken: string;
  streams: number;
  message: string;
  warmBursts: number;
  log: (line: string) => void;
}

/**
 * Part 1 of `bench:streams` on one layout. The first burst of a fresh process also compiles its
 * code (the JIT): reported apart, as the cold figure. Then `warmBursts` warm bursts, the service's
 * stream and the front door alone in turn, so that both meet the same machine; kept: each one's
 * burst of median first-event p99 (on this machine one burst's p99 moves by up to a factor of two
 * from the next), and every burst is listed in the report.
 */
export async function runIntentPart(
  o: IntentPartOptions,
): Promise<
  Pick<
    LayoutFigures,
    'intent' | 'intentCpuMs' | 'intentWork' | 'intentCold' | 'intentColdCpuMs' | 'frontDoor' | 'warmBursts'
  >
> {
  const { cluster, target, streams, message, log } = o;
  const measured = async (token: string, path?: string): Promise<Burst> => {
    const cpu = cluster.cpuNow();
    const figures = await runIntentStreams(target, token, streams, message, path);
    return { figures, cpuMs: cluster.cpuSince(cpu) };
  };
  const cold = await measured(o.token);
  log(
    `  cold: first event p50 ${cold.figures.firstEventMs.p50} / p99 ${cold.figures.firstEventMs.p99} ms; done p99 ${cold.figures.doneMs.p99} ms`,
  );
  await runIntentStreams(target, o.otherToken, 20, message);
  await runIntentStreams(target, o.otherToken, 20, message, FRONT_DOOR_PATH);
  const services: Burst[] = [];
  const doors: Burst[] = [];
  let intentWork: WorkPerRequest | undefined;
  for (let i = 0; i < o.warmBursts; i += 1) {
    // The work per stream of the first warm burst (the counts of one burst are all alike).
    const work = i === 0 ? await countWork(cluster.processes, cluster.nodes) : undefined;
    const service = await measured(o.token);
    if (work) intentWork = await work.per(streams);
    const door = await measured(o.token, FRONT_DOOR_PATH);
    services.push(service);
    doors.push(door);
    log(
      `  warm ${i + 1}: first event p50 ${service.figures.firstEventMs.p50} / p99 ${service.figures.firstEventMs.p99} ms, done p99 ${service.figures.doneMs.p99} ms, errors ${errorsOf(service.figures)}; ` +
        `front door alone p50 ${door.figures.firstEventMs.p50} / p99 ${door.figures.firstEventMs.p99} ms, errors ${errorsOf(door.figures)}`,
    );
  }
  const kept = medianBurst(services);
  const frontDoor = medianBurst(doors);
  log(
    `  kept (median p99): first event p50 ${kept.figures.firstEventMs.p50} / p99 ${kept.figures.firstEventMs.p99} ms; done p99 ${kept.figures.doneMs.p99} ms; front door alone p99 ${frontDoor.figures.firstEventMs.p99} ms`,
  );
  log(`  CPU ms ${JSON.stringify(kept.cpuMs)}; front door alone ${JSON.stringify(frontDoor.cpuMs)}`);
  log(`  work per stream ${JSON.stringify(intentWork)}`);
  return {
    intent: kept.figures,
    intentCpuMs: kept.cpuMs,
    intentWork: intentWork!,
    intentCold: cold.figures,
    intentColdCpuMs: cold.cpuMs,
    frontDoor,
    warmBursts: services.map((service, i) => ({ service: service.figures, frontDoor: doors[i]!.figures })),
  };
}
