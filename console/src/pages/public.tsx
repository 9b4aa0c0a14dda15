import { useState } from 'preact/hooks';
import { PLANS, PLAN_IDS } from '../../../actors/identity/plans';
import { auth, type PlanId } from '../api/auth';
import { ErrorBox, useAction } from '../components/ui';
import { Link, navigate, useLocation } from '../router';
import { ForgotPassword, ResetPassword } from './password';

interface Props {
  path: string;
  signedIn: boolean;
  onSignedIn: () => Promise<void>;
}

export function PublicPages(props: Props) {
  return (
    <main class="narrow" id="main">
      <h1 class="brand-title">Agent runtime console</h1>
      {props.path === '/signup' ? <SignUp {...props} /> : null}
      {props.path === '/signin' ? <SignIn {...props} /> : null}
      {props.path === '/forgot-password' ? <ForgotPassword /> : null}
      {props.path === '/reset-password' ? <ResetPassword /> : null}
      {props.path === '/login-link' ? <LoginLink /> : null}
    </main>
  );
}

/** The plans and what each allows (the service's own table; nothing is charged in the beta). */
export function PlanPicker(props: { value: PlanId; onChange: (p: PlanId) => void }) {
  return (
    <fieldset class="plans">
      <legend>Plan (free beta: nothing is charged)</legend>
      {PLAN_IDS.map((id) => {
        const plan = PLANS[id];
        return (
          <label key={id} class={props.value === id ? 'plan chosen' : 'plan'}>
            <input
              type="radio"
              name="plan"
              value={id}
              checked={props.value === id}
              onChange={() => props.onChange(id)}
            />
            <strong>{plan.label}</strong> <span class="muted">({plan.accountType})</span>
            <details>
              <summary>{plan.capabilities.length} capabilities</summary>
              <ul class="caps">
                {plan.capabilities.map((c) => (
                  <li key={c}>{c.replaceAll('_', ' ')}</li>
                ))}
              </ul>
            </details>
          </label>
        );
      })}
    </fieldset>
  );
}

function SignUp({ onSignedIn }: Props) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [agentName, setAgentName] = useState('');
  const [plan, setPlan] = useState<PlanId>('retail_free');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const done = await action.run(() =>
      auth.signup({
        email,
        password,
        agentName: agentName.trim() || undefined,
        accountType: PLANS[plan].accountType,
        selectedPlan: plan,
      }),
    );
    if (done) {
      await onSignedIn();
      navigate(done.redirectTo || '/', true);
    }
  };
  return (
    <form onSubmit={submit} class="card">
      <h2>Sign up</h2>
      <label>
        Email
        <input
          type="email"
          name="email"
          required
          autoComplete="email"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
      </label>
      <label>
        Password (at least 8 characters)
        <input
          type="password"
          name="password"
          required
          minLength={8}
          autoComplete="new-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <label>
        Display name (optional)
        <input
          name="agentName"
          value={agentName}
          maxLength={64}
          onInput={(e) => setAgentName(e.currentTarget.value)}
        />
      </label>
      <PlanPicker value={plan} onChange={setPlan} />
      <ErrorBox error={action.error} />
      <button class="primary" type="submit" disabled={action.busy}>
        {action.busy ? 'Creating your account…' : 'Create account'}
      </button>
      <p>
        Already have an account? <Link href="/signin">Sign in</Link>
      </p>
    </form>
  );
}

function SignIn({ onSignedIn }: Props) {
  const { query } = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => auth.signin(email, password))) {
      await onSignedIn();
      const next = query.get('next');
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/', true);
    }
  };
  return (
    <form onSubmit={submit} class="card">
      <h2>Sign in</h2>
      <label>
        Email
        <input
          type="email"
          name="email"
          required
          autoComplete="email"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
        />
      </label>
      <label>
        Password
        <input
          type="password"
          name="password"
          required
          autoComplete="current-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <ErrorBox error={action.error} />
      <button class="primary" type="submit" disabled={action.busy}>
        {action.busy ? 'Signing in…' : 'Sign in'}
      </button>
      <p>
        New here? <Link href="/signup">Create an account</Link> ·{' '}
        <Link href="/forgot-password">Forgot your password?</Link> ·{' '}
        <Link href="/login-link">Sign in with an API key</Link>
      </p>
    </form>
  );
}

/**
 * Sign in with an account API key: the service mints a one-time login link and the browser opens
 * it, landing back here signed in (the key is sent once and never kept by the page).
 */
function LoginLink() {
  const [apiKey, setApiKey] = useState('');
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const answer = await action.run(() =>
      auth.loginLink({ apiKey: apiKey.trim(), redirectTo: '/?signedIn=link' }),
    );
    // Opened on this origin whatever PUBLIC_BASE_URL says: the cookie must land where the page is.
    if (answer) {
      const url = new URL(answer.loginUrl, location.origin);
      location.assign(`${url.pathname}${url.search}`);
    }
  };
  return (
    <form onSubmit={submit} class="card">
      <h2>Sign in with an API key</h2>
      <p class="muted">
        The key is exchanged for a one-time login link (valid 5 minutes); the page never stores it.
      </p>
      <label>
        Account API key
        <input
          type="password"
          required
          value={apiKey}
          onInput={(e) => setApiKey(e.currentTarget.value)}
          autoComplete="off"
        />
      </label>
      <ErrorBox error={action.error} />
      <button class="primary" type="submit" disabled={action.busy}>
        Open the login link
      </button>
      <p>
        <Link href="/signin">Sign in with a password</Link>
      </p>
    </form>
  );
}
