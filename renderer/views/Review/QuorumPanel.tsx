import { quorumMajority } from '../../../shared/domain/quorum';
import { CHECKLIST_ITEMS, CHECKLIST_QUESTIONS } from '../../../shared/domain/review';
import type { ClaimReview, QuorumView, VoteView } from '../../../shared/ipc/channels/review';
import { QuorumTierBadge } from '../../components/Badges';
import { formatTime } from '../../components/format';
import { CHECKLIST_SHORT, CONCERN_ANSWER, refutedLabel } from './reviewQueue';
import { VoteForm } from './VoteForm';

function Answer({ value, concern }: { value: boolean | null | undefined; concern: boolean }) {
  if (typeof value !== 'boolean') return <span className="muted">—</span>;
  return <span className={value === concern ? 'answer-concern' : 'answer-fine'}>{value ? 'yes' : 'no'}</span>;
}

function VoteRow({ v }: { v: VoteView }) {
  return (
    <tr data-testid={`quorum-vote-${v.reviewer}`} className={v.valid ? '' : 'invalid-vote'} title={`basis ${v.basis}`}>
      <td className="nowrap">
        <b>{v.reviewer}</b>
        <div className="muted small">{formatTime(v.castAt)}</div>
      </td>
      <td className="nowrap">
        <span className={`vote vote-${refutedLabel(v.refuted).replace(' ', '-')}`} data-testid={`quorum-vote-${v.reviewer}-refuted`}>
          {refutedLabel(v.refuted)}
        </span>
        <div className="small" data-testid={`quorum-vote-${v.reviewer}-valid`}>
          {v.valid ? <span className="ok">{v.refuted === null ? 'valid, not counted' : 'counts'}</span> : <span className="bad">does not count</span>}
        </div>
      </td>
      {CHECKLIST_ITEMS.map((item) => (
        <td key={item} className="center">
          <Answer value={v.checklist[item]} concern={CONCERN_ANSWER[item]} />
        </td>
      ))}
      <td className="wrap">
        {v.reason || <span className="muted">no reason</span>}
        {v.problems.length > 0 && <div className="bad small">{v.problems.join('; ')}</div>}
        {v.killReasons.length > 0 && (
          <div className="row wrap">
            {v.killReasons.map((k) => (
              <span key={k} className="tag kill">
                {k}
              </span>
            ))}
          </div>
        )}
      </td>
    </tr>
  );
}

/**
 * Quorum review (seed 003): N independent reviewers vote refuted or not after the checklist. The
 * claim survives with a majority of valid votes and fewer refutations than a majority; abstentions
 * and invalid votes never approve anything.
 */
export function QuorumPanel({ review, quorum: q }: { review: ClaimReview; quorum: QuorumView }) {
  const majority = quorumMajority(q.size);
  return (
    <section className="panel" data-testid="review-quorum">
      <div className="row wrap">
        <h2>Quorum review of {q.size}</h2>
        <QuorumTierBadge tier={q.tier} testId="review-quorum-tier" />
      </div>
      <div className="counts-row">
        <div className="count-box" data-testid="review-quorum-valid">
          <span className="muted small">Valid votes</span>
          <b>
            {q.validVotes} <span className="muted small">of {majority} needed</span>
          </b>
        </div>
        <div className="count-box" data-testid="review-quorum-refute">
          <span className="muted small">Refute votes</span>
          <b>
            {q.refuteVotes} <span className="muted small">refutes at {majority}</span>
          </b>
        </div>
        <div className="count-box">
          <span className="muted small">Votes on earlier bases</span>
          <b>{q.staleVotes}</b>
        </div>
      </div>
      <p className={`quorum-reason quorum-reason-${q.tier}`} data-testid="review-quorum-reason">
        {q.reason}
      </p>
      {q.killReasons.length > 0 && (
        <p className="row wrap small" data-testid="review-quorum-kill">
          <span className="muted">Kill reasons:</span>
          {q.killReasons.map((k) => (
            <span key={k} className="tag kill">
              {k}
            </span>
          ))}
        </p>
      )}
      <h3>Votes on this basis</h3>
      {q.votes.length === 0 ? (
        <p className="muted small" data-testid="review-quorum-novotes">
          No vote on the current basis yet.
        </p>
      ) : (
        <div className="table-scroll">
          <table className="table dense votes" data-testid="review-quorum-votes">
            <thead>
              <tr>
                <th>Reviewer</th>
                <th>Vote</th>
                {CHECKLIST_ITEMS.map((item) => (
                  <th key={item} className="center" title={CHECKLIST_QUESTIONS[item]}>
                    {CHECKLIST_SHORT[item]}
                  </th>
                ))}
                <th>Reason and kill reasons</th>
              </tr>
            </thead>
            <tbody>
              {q.votes.map((v) => (
                <VoteRow key={v.voteId} v={v} />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <VoteForm review={review} votes={q.votes} />
    </section>
  );
}
