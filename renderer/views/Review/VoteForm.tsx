import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { CHECKLIST_ITEMS, CHECKLIST_QUESTIONS, voteValidity, type ChecklistItem, type KillReason } from '../../../shared/domain/review';
import type { ClaimReview, VoteView } from '../../../shared/ipc/channels/review';
import { ErrorNotice } from '../../components/ErrorNotice';
import { Fingerprint } from '../../components/Fingerprint';
import { selectActorId, selectReviewActions } from '../../state/selectors';
import type { ActionError } from '../../state/types';
import { useWorkbench } from '../../state/store';
import { VOTER_KILL_REASONS } from './reviewQueue';

type Choice = 'yes' | 'no' | 'open';
type Refuted = 'false' | 'true' | 'abstain';
const REFUTED_CHOICES: { value: Refuted; label: string }[] = [
  { value: 'false', label: 'Not refuted: the claim stands after my review' },
  { value: 'true', label: 'Refuted: the claim does not hold' },
  { value: 'abstain', label: 'Abstain (never counts as approval)' },
];
const toAnswer = (c: Choice): boolean | null => (c === 'open' ? null : c === 'yes');
const emptyChecklist = (): Record<ChecklistItem, Choice> => Object.fromEntries(CHECKLIST_ITEMS.map((i) => [i, 'open'])) as Record<ChecklistItem, Choice>;

/**
 * One reviewer's quorum vote on the basis they looked at. A vote with an open checklist question or
 * no reason is recorded but does not count; the form says so before it is cast.
 */
export function VoteForm({ review, votes }: { review: ClaimReview; votes: readonly VoteView[] }) {
  const actorId = useWorkbench(selectActorId);
  const { castVote } = useWorkbench(useShallow(selectReviewActions));
  const [checklist, setChecklist] = useState(emptyChecklist);
  const [refuted, setRefuted] = useState<Refuted | null>(null);
  const [reason, setReason] = useState('');
  const [kill, setKill] = useState<KillReason[]>([]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ActionError | null>(null);
  const [done, setDone] = useState<string | null>(null);

  const answers = Object.fromEntries(CHECKLIST_ITEMS.map((i) => [i, toAnswer(checklist[i])])) as Record<ChecklistItem, boolean | null>;
  const validity = voteValidity({ checklist: answers, reason });
  const mine = votes.find((v) => v.reviewer === actorId);

  const submit = async () => {
    if (refuted === null) return;
    setBusy(true);
    setDone(null);
    const refused = await castVote({
      claimId: review.claimId,
      basis: review.basis,
      refuted: refuted === 'abstain' ? null : refuted === 'true',
      checklist: answers,
      reason,
      killReasons: kill,
    });
    setBusy(false);
    setError(refused);
    if (!refused) {
      setDone(validity.valid ? 'Vote recorded; it counts.' : `Vote recorded, but it does not count: ${validity.problems.join('; ')}.`);
      setChecklist(emptyChecklist());
      setRefuted(null);
      setReason('');
      setKill([]);
    }
  };

  return (
    <form
      className="transition-form vote-form"
      data-testid="vote-form"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <h3>Your vote{actorId ? ` as ${actorId}` : ''}</h3>
      <div className="row wrap small">
        <span className="muted">On basis</span>
        <Fingerprint value={review.basis} testId="vote-basis" />
        <span className="muted">generation {review.generation}; if the claim moves before you cast it, the vote is refused and you review it again.</span>
      </div>
      {actorId === review.author && <p className="warn-text small">You wrote this claim: the service refuses your vote (four eyes).</p>}
      {mine && <p className="muted small">You already voted {mine.refuted === null ? 'to abstain' : mine.refuted ? 'refuted' : 'not refuted'} on this basis; a new vote replaces it.</p>}
      <fieldset className="checklist">
        <legend>Checklist</legend>
        {CHECKLIST_ITEMS.map((item) => (
          <div key={item} className="checklist-row">
            <span>{CHECKLIST_QUESTIONS[item]}</span>
            {(['yes', 'no', 'open'] as const).map((c) => (
              <label key={c} className="check">
                <input
                  type="radio"
                  name={`vote-${item}`}
                  data-testid={`vote-check-${item}-${c}`}
                  checked={checklist[item] === c}
                  onChange={() => setChecklist((s) => ({ ...s, [item]: c }))}
                />
                {c === 'open' ? 'not answered' : c}
              </label>
            ))}
          </div>
        ))}
      </fieldset>
      <fieldset>
        <legend>Vote</legend>
        <div className="mode-choice">
          {REFUTED_CHOICES.map((c) => (
            <label key={c.value} className="check">
              <input type="radio" name="vote-refuted" data-testid={`vote-refuted-${c.value}`} checked={refuted === c.value} onChange={() => setRefuted(c.value)} />
              {c.label}
            </label>
          ))}
        </div>
      </fieldset>
      <textarea data-testid="vote-reason" rows={2} aria-label="Reason" placeholder="Reason: what you checked and what you found" value={reason} onChange={(e) => setReason(e.target.value)} />
      <fieldset>
        <legend>Kill reasons (why it should not stand, if any)</legend>
        <div className="mode-choice">
          {VOTER_KILL_REASONS.map((k) => (
            <label key={k} className="check">
              <input
                type="checkbox"
                data-testid={`vote-kill-${k}`}
                checked={kill.includes(k)}
                onChange={(e) => setKill((s) => (e.target.checked ? [...s, k] : s.filter((x) => x !== k)))}
              />
              {k}
            </label>
          ))}
        </div>
      </fieldset>
      <p className={validity.valid ? 'ok small' : 'warn-text small'} data-testid="vote-preview">
        {refuted === null
          ? 'Choose not refuted, refuted or abstain.'
          : validity.valid
            ? refuted === 'abstain'
              ? 'Recorded as an abstention: valid, but it never counts toward the quorum.'
              : 'This vote counts.'
            : `This vote will be recorded but will not count: ${validity.problems.join('; ')}.`}
      </p>
      <div className="row">
        <button type="submit" data-testid="vote-submit" disabled={busy || refuted === null}>
          Cast vote
        </button>
        {done && (
          <span className="ok small" data-testid="vote-done">
            {done}
          </span>
        )}
      </div>
      {error && <ErrorNotice error={error} testId="vote-error" />}
    </form>
  );
}
