// A signing secret, shown once: the answer that made it is the only place
// the service ever gives it.

export function OnceSecret({
  id,
  title,
  secret,
  onDismiss,
}: {
  id: string;
  title: string;
  secret: string;
  onDismiss: () => void;
}) {
  return (
    <section class="secret" role="status" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p class="warning">
        Copy the signing secret now and give it to the receiver: it is shown
        this once. The receiver checks each delivery’s webhook-signature with
        it.
      </p>
      <label for={`${id}-value`}>Signing secret</label>
      <input
        id={`${id}-value`}
        class="secret-value"
        readOnly
        value={secret}
        onFocus={(e) => e.currentTarget.select()}
      />
      <p class="hint">Select it and copy it (Ctrl+C or ⌘C).</p>
      <button type="button" onClick={onDismiss}>
        I have copied it
      </button>
    </section>
  );
}
