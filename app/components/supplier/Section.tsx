/** A titled card of the supplier screen; `id` makes it a hash-link target. */
export function Section({ id, title, actions, children }: { id: string; title: string; actions?: React.ReactNode; children: React.ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 rounded-box border border-base-300 bg-base-100 p-4">
      <div className="mb-3 flex items-center justify-between gap-2">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {children}
    </section>
  );
}

/** The grey one-line text of an empty section. */
export function Empty({ children }: { children: React.ReactNode }) {
  return <p className="text-sm text-base-content/70">{children}</p>;
}
