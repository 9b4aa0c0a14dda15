import { del, get, post } from './http';

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
  session: () => get<{ authenticated: boolean; session: Session | null }>('/api/session'),
  signup: (input: SignupInput) =>
    post<{ success: true; redirectTo: string; credentials: { plan: PlanId; planLabel: string } }>(
      '/api/signup',
      input,
    ),
  signin: (email: string, password: string) =>
    post<{ success: true; credentials: { agentName: string } }>('/api/signin', { email, password }),
  signout: () => del<{ success: true }>('/api/session'),
  forgotPassword: (email: string) => post<{ success: true }>('/api/forgot-password', { email }),
  confirmReset: (email: string, token: string, newPassword: string) =>
    post<{ success: true }>('/api/forgot-password/confirm', { email, token, newPassword }),
  changePlan: (newPlan: PlanId) =>
    post<{
      transitioned: boolean;
      noChange: boolean;
      transition: { oldPlan: PlanId; newPlan: PlanId; newCapabilities: string[] };
      billing: { mode: 'free_beta'; charged: false };
    }>('/api/plans/transition', { newPlan }),
};
