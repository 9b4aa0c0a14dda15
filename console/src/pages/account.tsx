import { useState } from 'preact/hooks';
import { auth, type PlanId } from '../api/auth';
import { ErrorBox, useAction } from '../components/ui';
import { useApp } from '../state';
import { PlanPicker } from './public';

/** Plan change: any plan, any time, during the free beta (nothing charged). */
export function AccountPage() {
  const app = useApp();
  const [plan, setPlan] = useState<PlanId>(app.session.plan ?? 'retail_free');
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const answer = await action.run(() => auth.changePlan(plan));
    if (answer) {
      setDone(
        answer.noChange
          ? 'You are already on this plan.'
          : `Moved from ${answer.transition.oldPlan} to ${answer.transition.newPlan}; charged: ${answer.billing.charged ? 'yes' : 'nothing (free beta)'}.`,
      );
      await app.refreshSession();
    }
  };
  return (
    <section>
      <h1>Plan</h1>
      <p>
        Current plan: <strong>{app.session.planLabel ?? app.session.plan}</strong> ({app.session.accountType})
      </p>
      <form class="card" onSubmit={submit}>
        <PlanPicker value={plan} onChange={setPlan} />
        <ErrorBox error={action.error} />
        {done ? (
          <p class="notice" role="status">
            {done}
          </p>
        ) : null}
        <button type="submit" class="primary" disabled={action.busy}>
          Change plan
        </button>
      </form>
    </section>
  );
}
