import { api, callLoose } from './http';

export interface OpsMetrics {
  summary: {
    status: string;
    uptimeSeconds: number;
    requests: { lastMinute: number; lastHour: number };
    toolCalls: { lastMinute: number; lastHour: number };
    errorRate: { requests: number; toolCalls: number };
    executions: Record<string, number>;
  };
  metrics?: {
    routes?: Record<string, { p50Ms: number; p95Ms: number; p99Ms: number; count?: number }>;
    tools?: Record<string, { p50Ms: number; p95Ms: number; p99Ms: number }>;
  } & Record<string, unknown>;
  requiresAuthForDetails?: boolean;
}

export interface CrewItem {
  featureSlug: string;
  kind: string;
  coverage: string;
  active: { nodeId: string; heartbeatAgeMs: number } | null;
  standby: { nodeId: string; heartbeatAgeMs: number } | null;
}

export interface Crew {
  summary: { features: number; fullyCovered: number; degraded: number; uncovered: number; nodes: number };
  coverage: { status: string; items?: CrewItem[] };
  requiresAuthForDetails?: boolean;
}

export const ops = {
  metrics: (): Promise<OpsMetrics> => callLoose(api.GET('/api/ops/metrics')),
  crew: (): Promise<Crew> => callLoose(api.GET('/api/ops/crew')),
};
