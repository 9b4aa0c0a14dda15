import { AppError, errors } from '../../../schemas/errors';
import { backoffDelay, classifyError, DEFAULT_SUPERVISION } from '../../../src/kernel';
import { RestartBudget } from '../../../src/kernel/restart-budget';
import { resolvePolicy } from '../../../src/kernel/supervision';

describe('classifyError', () => {
  it('sorts thrown values into domain, transient and defect', () => {
    expect(classifyError(errors.notFound('x'))).toBe('domain');
    expect(classifyError(errors.validation('x'))).toBe('domain');
    expect(classifyError(errors.unavailable('x'))).toBe('transient');
    expect(classifyError(errors.deadline())).toBe('transient');
    expect(classifyError(new AppError('CONFLICT', 'x', {}, { retryable: true }))).toBe('transient');
    expect(classifyError(new Error('bug'))).toBe('defect');
    expect(classifyError('a string')).toBe('defect');
    expect(classifyError(undefined)).toBe('defect');
  });

  it('answers RATE_LIMITED to the caller instead of retrying it', () => {
    expect(classifyError(errors.rateLimited('slow down', 3))).toBe('domain');
  });

  it('recognises an AppError from another copy of the module by name and code', () => {
    expect(classifyError({ name: 'AppError', code: 'UNAVAILABLE', retryable: true, message: 'x' })).toBe(
      'transient',
    );
  });
});

describe('backoffDelay', () => {
  const policy = { ...DEFAULT_SUPERVISION, backoffBaseMs: 100, backoffMaxMs: 1000 };

  it('is uniform below a ceiling that doubles per retry up to the cap (full jitter)', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(0);
    expect(backoffDelay(1, policy, () => 0.999)).toBe(99);
    expect(backoffDelay(2, policy, () => 0.5)).toBe(100);
    expect(backoffDelay(3, policy, () => 0.5)).toBe(200);
    expect(backoffDelay(10, policy, () => 0.999)).toBe(999);
  });

  it('stays within [0, cap) with the real random', () => {
    for (let attempt = 1; attempt < 20; attempt++) {
      const d = backoffDelay(attempt, policy);
      expect(d).toBeGreaterThanOrEqual(0);
      expect(d).toBeLessThan(1000);
    }
  });
});

describe('resolvePolicy', () => {
  it('overrides only the fields given', () => {
    const policy = resolvePolicy(DEFAULT_SUPERVISION, { maxRestarts: 1, backoffMaxMs: undefined });
    expect(policy).toMatchObject({
      maxRestarts: 1,
      backoffMaxMs: 2000,
      maxAttempts: 10,
      restartWindowMs: 60000,
    });
    expect(resolvePolicy(DEFAULT_SUPERVISION, undefined)).toBe(DEFAULT_SUPERVISION);
  });
});

describe('RestartBudget', () => {
  it('allows max restarts per window and per address, then refuses until the window moves', () => {
    const budget = new RestartBudget();
    expect([0, 1, 2].map((t) => budget.tryRestart('a:1', 3, 1000, t))).toEqual([true, true, true]);
    expect(budget.tryRestart('a:1', 3, 1000, 500)).toBe(false);
    expect(budget.tryRestart('a:2', 3, 1000, 500)).toBe(true);
    expect(budget.tryRestart('a:1', 3, 1000, 1000)).toBe(true); // the restart at t=0 left the window
  });

  it('prunes actors whose restarts are all out of their window', () => {
    const budget = new RestartBudget();
    budget.tryRestart('a:1', 3, 1000, 0);
    budget.tryRestart('a:2', 3, 1000, 900);
    budget.prune(1500);
    expect(budget.size).toBe(1);
  });
});
