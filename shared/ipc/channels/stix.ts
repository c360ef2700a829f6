import { z } from 'zod';
import { Classification, EvidenceKind, LifecycleState } from '../../domain/enums';
import { FilePath, ImportReport } from './interchange';

/** Bundles above this are refused before a byte is parsed; the request may lower it. */
export const DEFAULT_MAX_STIX_BYTES = 256 * 1024 ** 2;

const IdList = z.object({ count: z.number().int(), ids: z.array(z.string()) });

/**
 * What a STIX import did beyond the bundle records it translated into (resources/stix-mapping.md):
 * how objects and their versions landed, what the mapping could not express except by keeping the
 * object verbatim, and the lifecycle moves revocation caused.
 */
export const StixMappingReport = z.object({
  bundleId: z.string(),
  specVersion: z.enum(['2.0', '2.1']),
  /** Objects in the file, and the distinct STIX ids among them. */
  objects: z.number().int(),
  stixIds: z.number().int(),
  /** Versions (id + modified) written as new revisions, and those the case already held. */
  versionsStored: z.number().int(),
  versionsUnchanged: z.number().int(),
  /** Versions older than the newest one the case already holds: history is never rewritten, so they are not stored. */
  olderThanCase: z.array(z.object({ id: z.string(), modified: z.string(), latestInCase: z.string() })),
  /** Objects per STIX type and the evidence kind that type maps to. */
  byType: z.record(z.string(), z.object({ count: z.number().int(), kind: EvidenceKind })),
  /** Types the mapping covers only by keeping the object verbatim (custom, unknown, language-content…). */
  keptVerbatimOnly: z.record(z.string(), IdList),
  /** Objects per classification they landed in, and markings that did not map to one (the default applied). */
  classifications: z.record(z.string(), z.number().int()),
  markingsNotMapped: z.record(z.string(), z.number().int()),
  /** Claims the mapping derived, per source. */
  claims: z.object({ relationships: z.number().int(), sightings: z.number().int(), about: z.number().int() }),
  /** Revocation: revoked objects superseded by their live successor, revoked outright, or left as they were. */
  superseded: z.array(z.object({ id: z.string(), revisionId: z.string(), successor: z.string(), chain: z.array(z.string()) })),
  revoked: z.array(z.object({ id: z.string(), revisionId: z.string(), reason: z.string() })),
  lifecycleNotApplied: z.array(z.object({ id: z.string(), revisionId: z.string(), wanted: LifecycleState, kept: LifecycleState, reason: z.string() })),
  /** Objects whose producer deprecated them (x_mitre_deprecated): kept in their state, marked in validationMethod. */
  deprecated: IdList,
  /** Relationships with a revoked end: kept, bound as usual, flagged here. */
  relationshipsToRevoked: z.array(z.object({ id: z.string(), relationshipType: z.string(), revokedEnds: z.array(z.string()) })),
  /** What was kept as evidence but could not be turned into a claim or binding, and why. */
  notMapped: z.array(z.object({ id: z.string(), reason: z.string() })),
  /**
   * Object versions too large for evidence content (1,000,000 characters), kept verbatim as source
   * documents (up to 5,000,000): `count` versions, the STIX ids and each version's source id, as
   * the case named it. They have no evidence lineage, claims or bindings. Lists hold the first 100.
   */
  keptAsSource: z.object({
    count: z.number().int(),
    ids: z.array(z.string()),
    versions: z.array(z.object({ id: z.string(), version: z.string(), sourceId: z.string(), characters: z.number().int() })),
  }),
});
export type StixMappingReport = z.infer<typeof StixMappingReport>;

export const StixImportReport = ImportReport.extend({ stix: StixMappingReport });
export type StixImportReport = z.infer<typeof StixImportReport>;

export const StixExportResult = z.object({
  path: z.string(),
  bytes: z.number().int(),
  sha256: z.string(),
  bundleId: z.string(),
  /** Objects written: imported STIX versions re-emitted as they came in, and the case's own items. */
  objects: z.number().int(),
  verbatim: z.number().int(),
  /** Of the verbatim ones, those re-emitted from source documents (objects too large for evidence). */
  fromSources: z.number().int(),
  notes: z.number().int(),
  groupings: z.number().int(),
  relationships: z.number().int(),
});
export type StixExportResult = z.infer<typeof StixExportResult>;

/** STIX 2.1 (and 2.0) bundles in and out (issue 10.3; mapping in resources/stix-mapping.md). */
export const stixChannels = {
  'stix:import': {
    request: z
      .object({
        path: FilePath,
        /** The tenant the objects are filed under; defaults to your only tenant, else the case's home tenant. */
        tenant: z.string().min(1).max(512).optional(),
        /** The classification of objects without a TLP marking (default internal). */
        classification: Classification.optional(),
        maxBytes: z.number().int().min(1).max(512 * 1024 ** 2).optional(),
      })
      .strict(),
    response: StixImportReport,
  },
  /** What you can see as one STIX 2.1 bundle, written to a new file. */
  'stix:export': {
    request: z.object({ path: FilePath }).strict(),
    response: StixExportResult,
  },
} as const;
