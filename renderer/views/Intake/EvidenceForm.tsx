import { EnumSelect } from '../../components/EnumSelect';
import { useState } from 'react';
import { CLASSIFICATIONS, EVIDENCE_KINDS, TRUST_TIERS, type Classification, type EvidenceKind } from '../../../shared/domain/enums';
import type { ValidityContext } from '../../../shared/domain/schemas';
import { Field, list, orNull, Outcome } from './formKit';
import { useChannelAction } from '../../components/useChannelAction';

/** A quoted span of a stored source document, chosen in the source form. */
export interface QuotedSpan {
  sourceId: string;
  start: number;
  end: number;
  quote: string;
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Adds evidence: pasted text, a dropped file, or a span quoted from a source document. The validity
 * context is filled with the case's defaults and every field can be changed; a dropped file's hash
 * is declared, so content changed on the way in is quarantined.
 */
export function EvidenceForm({ defaults, span, onSpanUsed }: { defaults: { tenant: string; classification: Classification }; span: QuotedSpan | null; onSpanUsed: () => void }) {
  const ingest = useChannelAction('evidence:ingest');
  const [evidenceId, setEvidenceId] = useState('');
  const [title, setTitle] = useState('');
  const [kind, setKind] = useState<EvidenceKind>('log_record');
  const [content, setContent] = useState('');
  const [declared, setDeclared] = useState<{ name: string; sha: string } | null>(null);
  const [mediaType, setMediaType] = useState('text/plain');
  const [sourceType, setSourceType] = useState('');
  const [sourceRef, setSourceRef] = useState('');
  const [sourceVersion, setSourceVersion] = useState('');
  const [observedAt, setObservedAt] = useState('');
  const [validUntil, setValidUntil] = useState('');
  const [producerType, setProducerType] = useState<ValidityContext['producerType']>('tool');
  const [producer, setProducer] = useState('');
  const [tenant, setTenant] = useState(defaults.tenant);
  const [classification, setClassification] = useState<Classification>(defaults.classification);
  const [trustTier, setTrustTier] = useState<ValidityContext['trustTier']>('unverified');
  const [confidence, setConfidence] = useState('');
  const [independenceGroup, setIndependenceGroup] = useState('');
  const [validationMethod, setValidationMethod] = useState('');
  const [appliesTo, setAppliesTo] = useState('');
  const quoted = span ?? null;
  const text = quoted ? quoted.quote : content;
  const e = ingest.error;

  const drop = async (file: File) => {
    const body = await file.text();
    setContent(body);
    setDeclared({ name: file.name, sha: await sha256Hex(body) });
    if (!title) setTitle(file.name);
    if (file.type) setMediaType(file.type);
  };

  return (
    <form
      className="grid-form"
      data-testid="intake-evidence"
      onSubmit={(ev) => {
        ev.preventDefault();
        void ingest
          .submit({
            ...(evidenceId.trim() ? { evidenceId: evidenceId.trim() } : {}),
            title,
            kind,
            content: text,
            mediaType,
            ...(declared && !quoted ? { declaredSha256: declared.sha } : {}),
            ...(quoted ? { span: quoted } : {}),
            context: {
              sourceType,
              sourceRef,
              sourceVersion: orNull(sourceVersion),
              observedAt: orNull(observedAt),
              effectiveFrom: orNull(observedAt),
              validUntil: orNull(validUntil),
              producerType,
              producer,
              tenant,
              classification,
              trustTier,
              confidence: confidence.trim() === '' ? null : Number(confidence),
              independenceGroup: orNull(independenceGroup),
              validationMethod: orNull(validationMethod),
              appliesTo: list(appliesTo),
            },
          }, () => {
            setContent('');
            setDeclared(null);
            setEvidenceId('');
            if (quoted) onSpanUsed();
          });
      }}
    >
      <Field label="Evidence id (optional; the case assigns one)" path={['evidenceId']} error={e} testId="intake-evidence-id">
        <input data-testid="intake-evidence-id" className="mono" placeholder="ev-fs02-001" value={evidenceId} onChange={(x) => setEvidenceId(x.target.value)} />
      </Field>
      <Field label="Title" path={['title']} error={e} testId="intake-evidence-title">
        <input data-testid="intake-evidence-title" value={title} onChange={(x) => setTitle(x.target.value)} />
      </Field>
      <Field label="Kind" path={['kind']} error={e} testId="intake-evidence-kind">
        <EnumSelect values={EVIDENCE_KINDS} value={kind} onChange={setKind} testId="intake-evidence-kind" />
      </Field>
      <Field label="Media type" path={['mediaType']} error={e} testId="intake-evidence-media">
        <input className="mono" value={mediaType} onChange={(x) => setMediaType(x.target.value)} />
      </Field>
      <Field label={quoted ? `Quoted from ${quoted.sourceId} [${quoted.start}, ${quoted.end})` : 'Content (paste, or drop a file here)'} path={['content']} error={e} wide testId="intake-evidence-content">
        <textarea
          data-testid="intake-evidence-content"
          className="mono"
          rows={4}
          value={text}
          readOnly={quoted !== null}
          onChange={(x) => {
            setContent(x.target.value);
            setDeclared(null);
          }}
          onDragOver={(x) => x.preventDefault()}
          onDrop={(x) => {
            x.preventDefault();
            const file = x.dataTransfer.files[0];
            if (file) void drop(file);
          }}
        />
        {declared && !quoted && (
          <span className="muted mono" data-testid="intake-evidence-declared">
            {declared.name}: SHA-256 {declared.sha} (declared; a mismatch on arrival quarantines)
          </span>
        )}
        {quoted && (
          <button type="button" className="link" onClick={onSpanUsed}>
            Type content instead
          </button>
        )}
      </Field>
      <Field label="Source type" path={['context', 'sourceType']} error={e} testId="intake-evidence-source-type">
        <input data-testid="intake-evidence-source-type" placeholder="edr, auth_log, threat_intel…" value={sourceType} onChange={(x) => setSourceType(x.target.value)} />
      </Field>
      <Field label="Source reference" path={['context', 'sourceRef']} error={e} testId="intake-evidence-source-ref">
        <input data-testid="intake-evidence-source-ref" className="mono" placeholder="mde:alert:4411" value={sourceRef} onChange={(x) => setSourceRef(x.target.value)} />
      </Field>
      <Field label="Source version" path={['context', 'sourceVersion']} error={e} testId="intake-evidence-source-version">
        <input data-testid="intake-evidence-source-version" value={sourceVersion} onChange={(x) => setSourceVersion(x.target.value)} />
      </Field>
      <Field label="Observed at (ISO 8601 with offset)" path={['context', 'observedAt']} error={e} testId="intake-evidence-observed">
        <input data-testid="intake-evidence-observed" className="mono" placeholder="2026-11-21T02:10:00Z" value={observedAt} onChange={(x) => setObservedAt(x.target.value)} />
      </Field>
      <Field label="Valid until (optional)" path={['context', 'validUntil']} error={e} testId="intake-evidence-valid-until">
        <input className="mono" value={validUntil} onChange={(x) => setValidUntil(x.target.value)} />
      </Field>
      <Field label="Produced by" path={['context', 'producerType']} error={e} testId="intake-evidence-producer-type">
        <select value={producerType} onChange={(x) => setProducerType(x.target.value as ValidityContext['producerType'])}>
          <option value="tool">a tool</option>
          <option value="person">a person</option>
          <option value="agent">an agent</option>
        </select>
      </Field>
      <Field label="Producer" path={['context', 'producer']} error={e} testId="intake-evidence-producer">
        <input data-testid="intake-evidence-producer" placeholder="defender-for-endpoint" value={producer} onChange={(x) => setProducer(x.target.value)} />
      </Field>
      <Field label="Tenant" path={['context', 'tenant']} error={e} testId="intake-evidence-tenant">
        <input data-testid="intake-evidence-tenant" value={tenant} onChange={(x) => setTenant(x.target.value)} />
      </Field>
      <Field label="Classification" path={['context', 'classification']} error={e} testId="intake-evidence-classification">
        <EnumSelect values={CLASSIFICATIONS} value={classification} onChange={setClassification} testId="intake-evidence-classification" />
      </Field>
      <Field label="Trust tier" path={['context', 'trustTier']} error={e} testId="intake-evidence-trust">
        <EnumSelect values={TRUST_TIERS} value={trustTier} onChange={setTrustTier} />
      </Field>
      <Field label="Confidence (0 to 1, optional)" path={['context', 'confidence']} error={e} testId="intake-evidence-confidence">
        <input data-testid="intake-evidence-confidence" inputMode="decimal" value={confidence} onChange={(x) => setConfidence(x.target.value)} />
      </Field>
      <Field label="Independence group (optional)" path={['context', 'independenceGroup']} error={e} testId="intake-evidence-group">
        <input value={independenceGroup} onChange={(x) => setIndependenceGroup(x.target.value)} />
      </Field>
      <Field label="Validation method (optional)" path={['context', 'validationMethod']} error={e} testId="intake-evidence-method">
        <input placeholder="hash+schema" value={validationMethod} onChange={(x) => setValidationMethod(x.target.value)} />
      </Field>
      <Field label="Applies to (comma-separated)" path={['context', 'appliesTo']} error={e} wide testId="intake-evidence-applies">
        <input data-testid="intake-evidence-applies" className="mono" placeholder="HOST-FS02, svc-backup" value={appliesTo} onChange={(x) => setAppliesTo(x.target.value)} />
      </Field>
      <div className="wide">
        <button type="submit" data-testid="intake-evidence-submit" disabled={ingest.busy}>
          Add evidence
        </button>
        <Outcome
          error={ingest.error}
          testId="intake-evidence"
          done={ingest.result && `${ingest.result.revisionId} added as ${ingest.result.state}${ingest.result.screening.flagged ? ' (held by screening)' : ''}.`}
        />
      </div>
    </form>
  );
}
