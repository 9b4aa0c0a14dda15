/**
 * The beta plans: label, account type and capabilities. The one table the service consults for
 * "may this account do X" (COMPATIBILITY.md, "Accounts, sessions, tokens").
 */
export const PLAN_IDS = ['retail_free', 'retail_pro', 'enterprise_plus', 'enterprise_max'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const ACCOUNT_TYPES = ['retail', 'enterprise'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

/** The capability that lets an account hold bearer tokens. */
export const BEARER_CAPABILITY = 'use_bearer_token';

const EVERY_PLAN = [
  'use_super_agentos',
  'use_nl_studio',
  'create_private_subagent',
  'create_private_workflow',
  'run_workflow',
  'install_skill',
  'install_app',
] as const;

const ENTERPRISE = [
  BEARER_CAPABILITY,
  'access_sdk',
  'access_developer_console',
  'create_skill',
  'publish_skill',
  'create_app',
  'publish_app',
  'manage_manifest',
  'manage_webhook',
  'manage_versions',
  'manage_team',
  'manage_org_vault',
  'view_audit_logs',
  'use_advanced_analytics',
] as const;

export interface Plan {
  id: PlanId;
  label: string;
  accountType: AccountType;
  capabilities: readonly string[];
}

export const PLANS: Readonly<Record<PlanId, Plan>> = Object.freeze({
  retail_free: { id: 'retail_free', label: 'Free', accountType: 'retail', capabilities: [...EVERY_PLAN] },
  retail_pro: {
    id: 'retail_pro',
    label: 'Pro',
    accountType: 'retail',
    capabilities: [...EVERY_PLAN, BEARER_CAPABILITY],
  },
  enterprise_plus: {
    id: 'enterprise_plus',
    label: 'Enterprise',
    accountType: 'enterprise',
    capabilities: [...EVERY_PLAN, ...ENTERPRISE],
  },
  enterprise_max: {
    id: 'enterprise_max',
    label: 'Enterprise Max',
    accountType: 'enterprise',
    capabilities: [...EVERY_PLAN, ...ENTERPRISE],
  },
});

export function planHas(plan: PlanId, capability: string): boolean {
  return PLANS[plan].capabilities.includes(capability);
}

/** retail_* plans belong to retail accounts, enterprise_* plans to enterprise accounts. */
export function planMatchesAccountType(plan: PlanId, accountType: AccountType): boolean {
  return PLANS[plan].accountType === accountType;
}

/** The message of a 403 for a missing capability (COMPATIBILITY.md wording). */
export function capabilityRequired(capability: string): string {
  return `Plan capability required: ${capability}`;
}
