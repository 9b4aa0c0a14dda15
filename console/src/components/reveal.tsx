/**
 * A secret shown once (a new or rotated bearer token, a new runtime credential): its value stays
 * only in the page's memory until the user says it is stored; lists show masked values only.
 * `testId` names the card (`<testId>-reveal`) and the field (`<testId>-value`) for the tests.
 */
export function OneTimeReveal(props: {
  name: string;
  value: string;
  /** What the value is, for the field's label ("Token value"). */
  label: string;
  /** Where to keep it. */
  hint: string;
  testId: string;
  onHide: () => void;
}) {
  const { name, value, label, hint, testId, onHide } = props;
  return (
    <div class="card reveal" role="alert" data-testid={`${testId}-reveal`}>
      <h2>Copy “{name}” now</h2>
      <p>This is the only time the value is shown. {hint}</p>
      <input
        readOnly
        value={value}
        aria-label={label}
        onFocus={(e) => e.currentTarget.select()}
        data-testid={`${testId}-value`}
      />
      <div class="row">
        <button type="button" onClick={() => void navigator.clipboard?.writeText(value)}>
          Copy
        </button>
        <button type="button" class="primary" onClick={onHide}>
          I stored it: hide
        </button>
      </div>
    </div>
  );
}
