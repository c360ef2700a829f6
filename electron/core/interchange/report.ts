import type { ChainVerification } from '../../../shared/ipc/channels/audit';
import { createHash } from 'node:crypto';
import type { ResponseOf } from '../../../shared/ipc/contract';
import type { ClaimDetail } from '../../../shared/ipc/channels/claims';
import type { DecisionView } from '../../../shared/ipc/channels/decisions';
import type { RemediationView } from '../../../shared/ipc/channels/remediation';
import { chainHead } from '../audit/receiptViews';
import type { ServiceContext } from '../context';
import { readCaseMeta, type CaseMeta } from '../services/caseMeta';
import { getClaim } from '../services/claims';
import { listDecisions } from '../services/decisions';
import { gateStatus } from '../services/gate';
import { listRemediations } from '../services/remediationView';
import { aclFilter } from '../store/acl';
import { readTransaction } from '../store/caseFile';
import { labelHidden } from '../../../shared/domain/inertText';
import { writeNewFile } from './newFile';
import { invalid } from '../errors';

/** One cited revision as the report shows it: which exact revision, its hash and where it came from. */
interface CitedRevision {
  revisionId: string;
  title: string;
  kind: string;
  state: string;
  contentSha256: string;
  sourceType: string;
  sourceRef: string;
  observedAt: string | null;
}

export interface CaseReport {
  meta: CaseMeta;
  generatedAt: string;
  generatedBy: string;
  gate: ResponseOf<'case:gate'>;
  head: { seq: number; head: string };
  claims: { claim: ClaimDetail; decisions: DecisionView[] }[];
  cited: Map<string, CitedRevision>;
  disputed: CitedRevision[];
  remediations: RemediationView[];
}

/**
 * What a case report says (issue 10.5), read in one snapshot through the same services the views
 * use, so it shows exactly what the generating reviewer may see: each claim with its derived status
 * and |I_c| / |E_c|, the exact revisions it cites with their hashes, disputes and how decisions
 * settled them, remediations, the completion gate (FINAL, or DRAFT and why) and the chain head.
 */
export function buildReport(ctx: ServiceContext, chain: ChainVerification): CaseReport {
  return readTransaction(ctx.db, () => {
    const decisions = listDecisions(ctx, {}).items;
    const byClaim = new Map<string, DecisionView[]>();
    for (const d of decisions) byClaim.set(d.claimId, [...(byClaim.get(d.claimId) ?? []), d]);
    // Each claim's detail derives its status once; a claim:list first would derive every status twice.
    const claimAcl = aclFilter(ctx.actor, 'c');
    const ids = ctx.db.prepare(`SELECT claim_id FROM claim c WHERE ${claimAcl.sql} ORDER BY claim_id`).pluck().all(...claimAcl.params) as string[];
    const claims = ids.map((id) => ({ claim: getClaim(ctx, id), decisions: byClaim.get(id) ?? [] }));
    const acl = aclFilter(ctx.actor, 'r');
    const revision = ctx.db.prepare(
      `SELECT r.revision_id, l.title, r.kind, r.state, r.content_sha256, r.source_type, r.source_ref, r.observed_at
         FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE r.revision_id = ? AND ${acl.sql}`,
    );
    type Row = { revision_id: string; title: string; kind: string; state: string; content_sha256: string; source_type: string; source_ref: string; observed_at: string | null };
    const toCited = (r: Row): CitedRevision => ({
      revisionId: r.revision_id, title: r.title, kind: r.kind, state: r.state, contentSha256: r.content_sha256, sourceType: r.source_type, sourceRef: r.source_ref, observedAt: r.observed_at,
    });
    const cited = new Map<string, CitedRevision>();
    for (const { claim } of claims) {
      for (const b of claim.bindings) {
        const row = revision.get(b.revisionId, ...acl.params) as Row | undefined;
        if (row) cited.set(row.revision_id, toCited(row));
      }
    }
    const disputed = (
      ctx.db
        .prepare(
          `SELECT r.revision_id, l.title, r.kind, r.state, r.content_sha256, r.source_type, r.source_ref, r.observed_at
             FROM evidence_revision r JOIN evidence_lineage l USING (evidence_id) WHERE r.state = 'DISPUTED' AND ${acl.sql} ORDER BY r.revision_id`,
        )
        .all(...acl.params) as Row[]
    ).map(toCited);
    return {
      meta: readCaseMeta(ctx.db),
      generatedAt: ctx.now(),
      generatedBy: `${ctx.actor.displayName} (${ctx.actor.actorId})`,
      gate: gateStatus(ctx, chain),
      head: chainHead(ctx.db),
      claims,
      cited,
      disputed,
      remediations: listRemediations(ctx).items,
    };
  });
}

// ---------------------------------------------------------------------------------------------
// Inert text: everything in a report came from the case, and case text is attacker-controlled.

export function escapeHtml(text: string): string {
  return labelHidden(text).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** Markdown that renders as the text it is: no markup, links, HTML or table breaks from case text. */
export function escapeMarkdown(text: string): string {
  return labelHidden(text)
    .replace(/\r?\n/g, ' ')
    .replace(/[\\`*_{}[\]()#+\-.!|~>]/g, (c) => `\\${c}`)
    .replace(/</g, '&lt;');
}

const supportOf = (c: ClaimDetail) => `|I_c| ${c.support.independent} · |E_c| ${c.support.all}`;

function verdictLine(d: DecisionView): string {
  const who = d.decidedBy ? `, decided by ${d.decidedBy}${d.decidedAt ? ` at ${d.decidedAt}` : ''}` : '';
  return `${d.verdict} (${d.status}${d.effective ? ', in force' : ''}${d.current ? '' : ', stale'}) proposed by ${d.proposedBy}${who}`;
}

export function renderMarkdown(r: CaseReport): string {
  const md = escapeMarkdown;
  const out: string[] = [];
  out.push(`# Case report: ${md(r.meta.name)}`, '');
  if (r.meta.description) out.push(md(r.meta.description), '');
  out.push(`- Case id: \`${r.meta.caseId}\``, `- Generated ${r.generatedAt} by ${md(r.generatedBy)}; it shows what this reviewer may see.`);
  out.push(`- Completion gate: **${r.gate.final ? 'FINAL' : 'DRAFT'}**${r.gate.blockers.length ? ` with ${r.gate.blockers.length} blocker${r.gate.blockers.length === 1 ? '' : 's'}` : ''}`);
  out.push(`- Audit chain head: \`${r.head.head}\` (${r.head.seq} receipts); check it with \`npm run cli -- verify <case-file> --head ${r.head.head}\``, '');
  if (r.gate.blockers.length) {
    out.push('## What blocks FINAL', '', '| kind | target | why |', '| --- | --- | --- |');
    for (const b of r.gate.blockers) out.push(`| ${b.kind} | \`${md(b.target)}\` | ${md(b.message)} |`);
    out.push('');
  }
  out.push('## Claims', '');
  for (const { claim: c, decisions } of r.claims) {
    out.push(`### ${md(c.claimId)}: ${c.status}`, '', md(c.statement), '');
    out.push(`- Support: ${supportOf(c)}; partial ${c.partialSupport.independent}/${c.partialSupport.all}; refuting ${c.refute.independent}/${c.refute.all}; policy: ${c.policy.minIndependentSources} independent source(s)${c.policy.requiredKinds.length ? `, kinds ${c.policy.requiredKinds.join(', ')}` : ''}`);
    for (const reason of c.reasons) out.push(`- ${md(reason)}`);
    for (const d of decisions) out.push(`- Decision \`${d.decisionId}\`: ${md(verdictLine(d))}. Rationale: ${md(d.rationale)}`);
    if (c.bindings.length) {
      out.push('', '| relation | role | revision | state | SHA-256 | title |', '| --- | --- | --- | --- | --- | --- |');
      for (const b of c.bindings) {
        const e = r.cited.get(b.revisionId);
        out.push(`| ${b.relation} | ${b.role} | \`${md(b.revisionId)}\` | ${e?.state ?? 'hidden'} | \`${e?.contentSha256 ?? ''}\` | ${e ? md(e.title) : ''} |`);
      }
    }
    out.push('');
  }
  out.push('## Disputed evidence', '');
  if (r.disputed.length === 0) out.push('None.', '');
  for (const d of r.disputed) out.push(`- \`${md(d.revisionId)}\` ${md(d.title)} (SHA-256 \`${d.contentSha256}\`)`);
  if (r.disputed.length) out.push('');
  out.push('## Remediations', '');
  if (r.remediations.length === 0) out.push('None.', '');
  for (const m of r.remediations) out.push(`- ${m.remediationId}: \`${md(m.claimId)}\` ${m.status}, decision \`${m.decision.decisionId}\` (${m.decision.verdict}), owner ${md(m.owner)}, projection ${m.projection}`);
  return `${out.join('\n').trimEnd()}\n`;
}

const STYLE = `body{font:14px/1.45 system-ui,sans-serif;color:#1c2733;max-width:60rem;margin:2rem auto;padding:0 1rem}
h1{font-size:1.6rem}h2{margin-top:2rem;border-bottom:1px solid #d5dbe3}h3{margin-bottom:.3rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{border:1px solid #d5dbe3;padding:.25rem .4rem;text-align:left;vertical-align:top}
code,.mono{font-family:ui-monospace,monospace;font-size:12px;overflow-wrap:anywhere}.badge{font-weight:600}.muted{color:#5f6b7a}
.final{color:#1b7f3b}.draft{color:#9a6700}@media print{body{margin:0;max-width:none}h2{break-after:avoid}tr{break-inside:avoid}}`;

export function renderHtml(r: CaseReport): string {
  const h = escapeHtml;
  const parts: string[] = [];
  parts.push(
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    // Inert by construction: no script, no remote fetch, nothing but the inline style below.
    `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">`,
    `<title>Case report: ${h(r.meta.name)}</title><style>${STYLE}</style></head><body>`,
    `<h1>Case report: ${h(r.meta.name)}</h1>`,
    r.meta.description ? `<p>${h(r.meta.description)}</p>` : '',
    '<ul>',
    `<li>Case id <code>${h(r.meta.caseId)}</code></li>`,
    `<li>Generated ${h(r.generatedAt)} by ${h(r.generatedBy)}; it shows what this reviewer may see.</li>`,
    `<li>Completion gate: <span class="badge ${r.gate.final ? 'final' : 'draft'}" id="gate">${r.gate.final ? 'FINAL' : 'DRAFT'}</span>${r.gate.blockers.length ? ` with ${r.gate.blockers.length} blocker${r.gate.blockers.length === 1 ? '' : 's'}` : ''}</li>`,
    `<li>Audit chain head <code id="head">${h(r.head.head)}</code> (${r.head.seq} receipts)</li>`,
    '</ul>',
  );
  if (r.gate.blockers.length) {
    parts.push('<h2>What blocks FINAL</h2><table><tr><th>kind</th><th>target</th><th>why</th></tr>');
    for (const b of r.gate.blockers) parts.push(`<tr><td>${h(b.kind)}</td><td><code>${h(b.target)}</code></td><td>${h(b.message)}</td></tr>`);
    parts.push('</table>');
  }
  parts.push('<h2>Claims</h2>');
  for (const { claim: c, decisions } of r.claims) {
    parts.push(`<section class="claim" id="claim-${h(c.claimId)}"><h3><code>${h(c.claimId)}</code> <span class="badge">${h(c.status)}</span></h3><p>${h(c.statement)}</p><ul>`);
    parts.push(`<li>Support: ${h(supportOf(c))}; partial ${c.partialSupport.independent}/${c.partialSupport.all}; refuting ${c.refute.independent}/${c.refute.all}</li>`);
    for (const reason of c.reasons) parts.push(`<li class="muted">${h(reason)}</li>`);
    for (const d of decisions) parts.push(`<li>Decision <code>${h(d.decisionId)}</code>: ${h(verdictLine(d))}. Rationale: ${h(d.rationale)}</li>`);
    parts.push('</ul>');
    if (c.bindings.length) {
      parts.push('<table><tr><th>relation</th><th>role</th><th>revision</th><th>state</th><th>SHA-256</th><th>title</th></tr>');
      for (const b of c.bindings) {
        const e = r.cited.get(b.revisionId);
        parts.push(`<tr><td>${h(b.relation)}</td><td>${h(b.role)}</td><td><code>${h(b.revisionId)}</code></td><td>${e ? h(e.state) : 'hidden'}</td><td class="mono">${e ? h(e.contentSha256) : ''}</td><td>${e ? h(e.title) : ''}</td></tr>`);
      }
      parts.push('</table>');
    }
    parts.push('</section>');
  }
  parts.push('<h2>Disputed evidence</h2>', r.disputed.length ? '<ul>' : '<p>None.</p>');
  for (const d of r.disputed) parts.push(`<li><code>${h(d.revisionId)}</code> ${h(d.title)} <span class="mono">${h(d.contentSha256)}</span></li>`);
  if (r.disputed.length) parts.push('</ul>');
  parts.push('<h2>Remediations</h2>', r.remediations.length ? '<ul>' : '<p>None.</p>');
  for (const m of r.remediations) parts.push(`<li>${m.remediationId}: <code>${h(m.claimId)}</code> ${h(m.status)}, decision <code>${h(m.decision.decisionId)}</code> (${h(m.decision.verdict)}), owner ${h(m.owner)}, projection ${h(m.projection)}</li>`);
  if (r.remediations.length) parts.push('</ul>');
  parts.push('</body></html>');
  return `${parts.filter((p) => p !== '').join('\n')}\n`;
}

/** Writes the report to a new file (never over an existing one). */
/**
 * Prints HTML to PDF: the desktop app gives the session one (Electron's printToPDF in a window
 * that runs no script); the loopback host and the CLI have none.
 */
export type PdfPrinter = (html: string) => Promise<Buffer>;

export async function writeReport(ctx: ServiceContext, chain: ChainVerification, path: string, format: 'html' | 'markdown' | 'pdf', printPdf: PdfPrinter | null): Promise<{ path: string; bytes: number; sha256: string }> {
  let buf: Buffer;
  if (format === 'pdf') {
    if (!printPdf) {
      throw invalid('report:write: format: a PDF is printed by the desktop app; here, use "Print report" (the browser\'s print dialog can save it as PDF) or write HTML', [{ path: ['format'], message: 'pdf needs the desktop app' }]);
    }
    // Everything is read before the printer runs: the PDF is one consistent state of the case.
    buf = await printPdf(renderHtml(buildReport(ctx, chain)));
  } else buf = Buffer.from(format === 'html' ? renderHtml(buildReport(ctx, chain)) : renderMarkdown(buildReport(ctx, chain)), 'utf8');
  writeNewFile(path, 'report:write', (put) => put(buf));
  return { path, bytes: buf.length, sha256: createHash('sha256').update(buf).digest('hex') };
}

/** report:render: the HTML report as text, for the window's own print dialog. */
export function renderReport(ctx: ServiceContext, chain: ChainVerification): { html: string; sha256: string } {
  const html = renderHtml(buildReport(ctx, chain));
  return { html, sha256: createHash('sha256').update(html).digest('hex') };
}
