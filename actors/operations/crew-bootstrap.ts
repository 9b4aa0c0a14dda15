/** What bootstrap reads of the crew's dependencies. */
export interface BootstrapDeps {
  /** Declares the indexes of every collection; resolves what it created and found. */
  readonly declareIndexes?: () => Promise<
    Array<{ collection: string; created: string[]; unchanged: string[] }>
  >;
  /** Seeds of the catalogs (the skill and app stores'), each idempotent: name → run. */
  readonly seeds?: Readonly<Record<string, () => Promise<unknown>>>;
}

export interface BootstrapResult {
  indexes: { created: string[]; alreadyThere: number };
  catalogs: Record<string, unknown>;
  crews: { assigned: string[]; alreadyAssigned: string[] };
}

/**
 * `POST /api/ops/crew/bootstrap`: declares the indexes of every collection again (idempotent),
 * seeds the catalogs again (idempotent) and stores the crew of every feature (`assignAll`); says
 * what it created and what was already there. Queues and exchanges are declared by every process
 * when it starts.
 */
export async function bootstrapCluster(
  deps: BootstrapDeps,
  assignAll: () => Promise<BootstrapResult['crews']>,
): Promise<BootstrapResult> {
  const reports = deps.declareIndexes ? await deps.declareIndexes() : [];
  const created = reports.flatMap((r) => r.created.map((name) => `${r.collection}.${name}`));
  const alreadyThere = reports.reduce((n, r) => n + r.unchanged.length, 0);
  const catalogs: Record<string, unknown> = {};
  for (const [name, seed] of Object.entries(deps.seeds ?? {})) catalogs[name] = await seed();
  return { indexes: { created, alreadyThere }, catalogs, crews: await assignAll() };
}
