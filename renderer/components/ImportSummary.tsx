import type { ImportReport, ProvImportReport } from '../../shared/ipc/channels/interchange';
import type { StixMappingReport } from '../../shared/ipc/channels/stix';

const KINDS = ['evidence', 'claims', 'bindings', 'sources', 'prov'] as const;
const NOUN: Record<(typeof KINDS)[number], [string, string]> = {
  evidence: ['evidence revision', 'evidence revisions'],
  claims: ['claim', 'claims'],
  bindings: ['binding', 'bindings'],
  sources: ['source document', 'source documents'],
  prov: ['provenance record', 'provenance records'],
};

/** What a bundle import did, in the words an analyst checks it by: what came in, what was held back. */
export function ImportSummary({ report }: { report: ImportReport }) {
  const counts = (c: ImportReport['created']) =>
    KINDS.filter((k) => c[k] > 0)
      .map((k) => `${c[k].toLocaleString('en')} ${NOUN[k][c[k] === 1 ? 0 : 1]}`)
      .join(', ') || 'nothing';
  return (
    <div data-testid="bundle-import-report">
      <p>
        <b>{report.records.toLocaleString('en')} records.</b> Added: <span data-testid="bundle-import-created">{counts(report.created)}</span>. Already in
        the case, unchanged: <span data-testid="bundle-import-unchanged">{counts(report.unchanged)}</span>.
      </p>
      {report.quarantined.length > 0 && (
        <p data-testid="bundle-import-quarantined">
          Quarantined by screening ({report.quarantined.length}): <span className="mono">{report.quarantined.slice(0, 50).join(', ')}{report.quarantined.length > 50 ? ', …' : ''}</span>
        </p>
      )}
      {report.lifecycleNotApplied.length > 0 && (
        <>
          <p>States the bundle reported that were not applied ({report.lifecycleNotApplied.length}):</p>
          <ul className="plain" data-testid="bundle-import-not-applied">
            {report.lifecycleNotApplied.slice(0, 50).map((n) => (
              <li key={`${n.at}-${n.revisionId}`}>
                <span className="mono">{n.revisionId}</span> reported {n.reported}, kept {n.kept} <span className="muted">({n.at}: {n.reason})</span>
              </li>
            ))}
          </ul>
        </>
      )}
      {report.renamed.length > 0 && (
        <p data-testid="bundle-import-renamed">
          Stored under their scope ({report.renamed.length}): {report.renamed.slice(0, 50).map((r) => `${r.name} → ${r.id}`).join(', ')}
          {report.renamed.length > 50 ? ', …' : ''}
        </p>
      )}
      <p className="muted mono">file SHA-256 {report.bundleSha256}</p>
    </div>
  );
}

/** What a PROV-JSON import added, and what it could not model. */
export function ProvImportSummary({ report }: { report: ProvImportReport }) {
  const skipped = Object.entries(report.skipped);
  return (
    <div data-testid="prov-import-report">
      <p>
        Added {report.nodesAdded.toLocaleString('en')} provenance nodes and {report.edgesAdded.toLocaleString('en')} edges; {report.unchanged.toLocaleString('en')} already in the case.
        {report.superseded.length > 0 && ` Superseded: ${report.superseded.join(', ')}.`}
        {report.revoked.length > 0 && ` Revoked: ${report.revoked.join(', ')}.`}
      </p>
      {skipped.length > 0 && <p className="muted">Not modelled: {skipped.map(([k, n]) => `${k} (${n})`).join(', ')}</p>}
    </div>
  );
}

/** What a STIX import did beyond its records: versions, revocation, what was kept verbatim only (resources/stix-mapping.md). */
export function StixImportSummary({ stix }: { stix: StixMappingReport }) {
  const verbatim = Object.entries(stix.keptVerbatimOnly);
  return (
    <div data-testid="stix-import-report">
      <p>
        STIX {stix.specVersion} bundle <span className="mono">{stix.bundleId}</span>: {stix.objects.toLocaleString('en')} objects ({stix.stixIds.toLocaleString('en')} ids);{' '}
        {stix.versionsStored.toLocaleString('en')} versions stored, {stix.versionsUnchanged.toLocaleString('en')} already in the case. Claims derived: {stix.claims.relationships.toLocaleString('en')} from
        relationships, {stix.claims.sightings.toLocaleString('en')} from sightings, {stix.claims.about.toLocaleString('en')} from opinions.
      </p>
      {(stix.superseded.length > 0 || stix.revoked.length > 0) && (
        <p data-testid="stix-import-revocation">
          Revoked objects: {stix.superseded.length.toLocaleString('en')} superseded by their live replacement, {stix.revoked.length.toLocaleString('en')} revoked outright.
          {stix.relationshipsToRevoked.length > 0 && ` ${stix.relationshipsToRevoked.length.toLocaleString('en')} relationships point at a revoked object (kept, flagged).`}
        </p>
      )}
      {stix.deprecated.count > 0 && <p>Deprecated by their producer (state kept, marked): {stix.deprecated.count.toLocaleString('en')}</p>}
      {verbatim.length > 0 && <p className="muted">Kept verbatim only: {verbatim.map(([type, l]) => `${type} (${l.count})`).join(', ')}</p>}
      {stix.keptAsSource.count > 0 && (
        <p className="muted">
          Too large for evidence, kept as source documents (no claims): {stix.keptAsSource.count.toLocaleString('en')} versions of {stix.keptAsSource.ids.join(', ')}
        </p>
      )}
      {stix.olderThanCase.length > 0 && <p className="muted">Older than the case's versions, not stored: {stix.olderThanCase.length}</p>}
    </div>
  );
}
