import { api, call } from './http';

export type PlanId = 'retail_free' | 'retail_pro' | 'enterprise_plus' | 'enterprise_max';

export interface Session {
  agentName: string | null;
  expiresAt: string | null;
  via: 'session' | 'bearer';
  subjectType: 'account' | 'agent';
  accountType?: 'retail' | 'enterprise';
  plan?: PlanId;
  planLabel?: string;
  capabilities?: string[];
}

export interface SignupInput {
  email: string;
  password: string;
  agentName?: string;
  accountType: 'retail' | 'enterprise';
  selectedPlan: PlanId;
}

export const auth = {
  session: async (): Promise<{ authenticated: boolean; session: Session | null }> => {
    const answer = await call(api.GET('/api/session'));
    return answer.authenticated ? answer : { authenticated: false, session: null };
  },
  signup: (
    input: SignupInput,
  ): Promise<{ success: true; redirectTo: string; credentials: { plan: PlanId; planLabel: string } }> =>
    call(api.POST('/api/signup', { body: input })),
  signin: (email: string, password: string): Promise<{ success: true; credentials: { agentName: string } }> =>
    call(api.POST('/api/signin', { body: { email, password } })),
  signout: (): Promise<{ success: true }> => call(api.DELETE('/api/session')),
  forgotPassword: (email: string): Promise<{ success: true }> =>
    call(api.POST('/api/forgot-password', { body: { email } })),
  confirmReset: (email: string, token: string, newPassword: string): Promise<{ success: true }> =>
    call(api.POST('/api/forgot-password/confirm', { body: { email, token, newPassword } })),
  changePlan: (
    newPlan: PlanId,
  ): Promise<{
    transitioned: boolean;
    noChange: boolean;
    transition: { oldPlan: PlanId; newPlan: PlanId; newCapabilities: string[] };
    billing: { mode: 'free_beta'; charged: false };
  }> => call(api.POST('/api/plans/transition', { body: { newPlan } })),
  /** The login link by e-mail for an agent key (the login-link page). */
  loginLink: (body: { apiKey: string; redirectTo?: string }): Promise<{ loginUrl: string }> =>
    call(api.POST('/api/session/from-key', { body })),
};
