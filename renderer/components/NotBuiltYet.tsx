export function NotBuiltYet({ title, issue }: { title: string; issue: string }) {
  return (
    <section className="panel">
      <h1>{title}</h1>
      <p className="muted">Not built yet: this view arrives with {issue}.</p>
    </section>
  );
}
