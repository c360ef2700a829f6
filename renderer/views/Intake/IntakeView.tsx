import { useState } from 'react';
import { CLASSIFICATIONS, type Classification } from '../../../shared/domain/enums';
import { useWorkbench } from '../../state/store';
import { BindForm } from './BindForm';
import { ClaimForm } from './ClaimForm';
import { EvidenceForm, type QuotedSpan } from './EvidenceForm';
import { ReviewerForm } from './ReviewerForm';
import { ReviseForm } from './ReviseForm';
import { SourceForm } from './SourceForm';

const rank = (c: Classification) => CLASSIFICATIONS.indexOf(c);

/**
 * Feeding a case by hand (issue 10.1): evidence, source documents and quoted spans, claims,
 * bindings and (for admins) reviewers. Every form calls the same channel a script would, so each
 * action is screened, checked and receipted like any other; a refusal is shown next to its field.
 */
export function IntakeView() {
  const caseInfo = useWorkbench((s) => s.caseInfo);
  // A quoted span goes to the form it was quoted for: new evidence, or a correction.
  const [span, setSpan] = useState<{ span: QuotedSpan; as: 'evidence' | 'correction' } | null>(null);
  const actor = caseInfo?.actor;
  if (!caseInfo || !actor) return <p className="muted">Open a case and unlock a reviewer to add to it.</p>;
  // Defaults from the case: its home tenant, at the lower of its ceiling and the reviewer's clearance, never above internal.
  const home = caseInfo.homeScope;
  const tenant = home.tenants.find((t) => t !== '*') ?? actor.tenants.find((t) => t !== '*') ?? '';
  const ceiling = [home.maxClassification, actor.maxClassification, 'internal' as const].sort((a, b) => rank(a) - rank(b))[0]!;
  const defaults = { tenant, classification: ceiling };
  return (
    <div className="stack" data-testid="intake-view">
      <section className="panel">
        <h1>Add evidence</h1>
        <EvidenceForm defaults={defaults} span={span?.as === 'evidence' ? span.span : null} onSpanUsed={() => setSpan(null)} />
      </section>
      <section className="panel">
        <h2>Source document, and a passage of it as evidence</h2>
        <SourceForm
          defaults={defaults}
          onQuote={(s, as) => {
            setSpan({ span: s, as });
            document.querySelector(`[data-testid="${as === 'evidence' ? 'intake-evidence' : 'intake-revise'}"]`)?.scrollIntoView({ block: 'start' });
          }}
        />
      </section>
      <section className="panel">
        <h2>Correct evidence (a new revision)</h2>
        <ReviseForm span={span?.as === 'correction' ? span.span : null} onSpanUsed={() => setSpan(null)} />
      </section>
      <section className="panel">
        <h2>New claim</h2>
        <ClaimForm defaults={defaults} />
      </section>
      <section className="panel">
        <h2>Bind evidence to a claim</h2>
        <BindForm />
      </section>
      {actor.role === 'admin' && (
        <section className="panel">
          <h2>Add a reviewer</h2>
          <ReviewerForm />
        </section>
      )}
    </div>
  );
}
