import { useCallback, useEffect, useState } from 'preact/hooks';
import { auth, type Session } from './api/auth';
import { Busy, ErrorBox } from './components/ui';
import { navigate, useLocation } from './router';
import { Shell } from './shell';
import { PublicPages } from './pages/public';

/** Public paths: reachable without a session (sign up, sign in, password reset, login link). */
const PUBLIC = ['/signin', '/signup', '/forgot-password', '/reset-password', '/login-link'];

export function App() {
  const { path } = useLocation();
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [error, setError] = useState<unknown>(null);

  const refresh = useCallback(async () => {
    try {
      const answer = await auth.session();
      setSession(answer.authenticated ? answer.session : null);
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, []);
  useEffect(() => {
    void refresh();
  }, [refresh]);

  const isPublic = PUBLIC.includes(path);
  useEffect(() => {
    if (session === null && !isPublic)
      navigate(`/signin${path !== '/' ? `?next=${encodeURIComponent(path)}` : ''}`, true);
    if (session && (path === '/signin' || path === '/signup')) navigate('/', true);
  }, [session, isPublic, path]);

  if (error)
    return (
      <main class="narrow">
        <ErrorBox error={error} />
      </main>
    );
  if (session === undefined)
    return (
      <main class="narrow">
        <Busy />
      </main>
    );
  if (!session || isPublic) return <PublicPages path={path} onSignedIn={refresh} signedIn={!!session} />;
  return <Shell session={session} refreshSession={refresh} path={path} />;
}
