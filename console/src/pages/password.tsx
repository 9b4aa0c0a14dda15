import { useState } from 'preact/hooks';
import { auth } from '../api/auth';
import { ErrorBox, useAction } from '../components/ui';
import { Link, useLocation } from '../router';

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => auth.forgotPassword(email))) setSent(true);
  };
  return (
    <form onSubmit={submit} class="card">
      <h2>Reset your password</h2>
      {sent ? (
        <p role="status">
          If an account uses {email}, a reset link is on its way. Open it to choose a new password.
        </p>
      ) : (
        <>
          <label>
            Email
            <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          </label>
          <ErrorBox error={action.error} />
          <button class="primary" type="submit" disabled={action.busy}>
            Send the reset link
          </button>
        </>
      )}
      <p>
        <Link href="/signin">Back to sign in</Link> · Have a token?{' '}
        <Link href="/reset-password">Enter it</Link>
      </p>
    </form>
  );
}

/** The mail's link lands here: `/reset-password?email=…&token=…`. */
export function ResetPassword() {
  const { query } = useLocation();
  const [email, setEmail] = useState(query.get('email') ?? '');
  const [token, setToken] = useState(query.get('token') ?? '');
  const [password, setPassword] = useState('');
  const [done, setDone] = useState(false);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (await action.run(() => auth.confirmReset(email, token, password))) setDone(true);
  };
  if (done)
    return (
      <div class="card" role="status">
        <h2>Password changed</h2>
        <p>Every earlier session and account token of this account has ended.</p>
        <Link href="/signin">Sign in with the new password</Link>
      </div>
    );
  return (
    <form onSubmit={submit} class="card">
      <h2>Choose a new password</h2>
      <label>
        Email
        <input type="email" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label>
        Reset token
        <input required value={token} onInput={(e) => setToken(e.currentTarget.value)} autoComplete="off" />
      </label>
      <label>
        New password
        <input
          type="password"
          required
          minLength={8}
          autoComplete="new-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
        />
      </label>
      <ErrorBox error={action.error} />
      <button class="primary" type="submit" disabled={action.busy}>
        Change password
      </button>
    </form>
  );
}
