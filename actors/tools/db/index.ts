export {
  openPrivateDatabases,
  type PrivateDatabases,
  type PrivateDatabasesOptions,
} from './private-databases';
export type { AgentDatabase, DbCallOptions } from './agent-database';
export { guardAgentSql, type GuardedStatement, type SqlGuardContext } from './sql-guard';
