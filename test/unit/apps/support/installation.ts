/** The installation both apps unit suites start from: account acc_1's active `ledger` 1.0.0. */
export function activeLedger(installedAt: Date) {
  return {
    accountId: 'acc_1',
    slug: 'ledger',
    status: 'active',
    installedAt,
    installedVersion: '1.0.0',
  };
}
