/** A titled section of the slide-over. */
export function SectionBlock({ title, id, children }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="border-t border-base-300 pt-4">
      <h3 id={id} className="mb-2 text-sm font-semibold uppercase tracking-wide text-base-content/70">
        {title}
      </h3>
      {children}
    </section>
  );
}
