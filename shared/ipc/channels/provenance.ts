import { z } from 'zod';
import { Classification } from '../../domain/enums';
import { Id, IsoTime, RevisionId } from '../../domain/schemas';

/** W3C PROV relations, subject first in PROV's own argument order (DESIGN §3.2). */
export const PROV_EDGE_TYPES = ['used', 'wasGeneratedBy', 'wasDerivedFrom', 'wasAssociatedWith', 'wasAttributedTo'] as const;
export const ProvEdgeType = z.enum(PROV_EDGE_TYPES);
export type ProvEdgeType = z.infer<typeof ProvEdgeType>;

export const PROV_NODE_KINDS = ['entity', 'activity', 'agent'] as const;
export const ProvNodeKind = z.enum(PROV_NODE_KINDS);
export type ProvNodeKind = z.infer<typeof ProvNodeKind>;

/**
 * Ids of declared nodes. Entities for stored evidence and source documents are not declared: edges
 * name them as `rev:<revisionId>` and `src:<sourceId>`, so those prefixes are reserved.
 */
const DeclaredId = Id.refine((id) => !/^(rev|src):/.test(id), 'rev: and src: ids are reserved for stored revisions and sources');

export const ProvNodeInput = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('entity'),
      id: DeclaredId,
      label: z.string().trim().min(1).max(500),
      /** The source this entity is (e.g. a web page's URL); copies of it count as that one source. */
      sourceRef: z.string().min(1).max(500).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('activity'),
      id: DeclaredId,
      /** parse, summarise, analyse, extract, translate… */
      activityType: z.string().trim().min(1).max(100),
      label: z.string().trim().min(1).max(500),
      startedAt: IsoTime.optional(),
      endedAt: IsoTime.optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('agent'),
      id: DeclaredId,
      agentType: z.enum(['person', 'software', 'organization']),
      label: z.string().trim().min(1).max(500),
    })
    .strict(),
]);
export type ProvNodeInput = z.infer<typeof ProvNodeInput>;

/** An endpoint: a declared node id, `rev:<revisionId>` or `src:<sourceId>`. */
const Endpoint = Id;
export const ProvEdgeInput = z.object({ type: ProvEdgeType, from: Endpoint, to: Endpoint }).strict();
export type ProvEdgeInput = z.infer<typeof ProvEdgeInput>;

export const ProvNodeView = z.object({
  id: z.string(),
  kind: ProvNodeKind,
  /** entity: revision | source | external; activity: its type; agent: person | software | organization. */
  subtype: z.string(),
  label: z.string(),
  revisionId: z.string().nullable(),
  sourceId: z.string().nullable(),
});
export type ProvNodeView = z.infer<typeof ProvNodeView>;

export const ProvEdgeView = z.object({ type: ProvEdgeType, from: z.string(), to: z.string() });
export type ProvEdgeView = z.infer<typeof ProvEdgeView>;

export const OriginalSource = z.object({
  nodeId: z.string(),
  /** What independence counting collapses on: source:<ref>, document:<id> or entity:<id>. */
  sourceKey: z.string(),
  label: z.string(),
  revisionId: z.string().nullable(),
  sourceId: z.string().nullable(),
});
export type OriginalSource = z.infer<typeof OriginalSource>;

export const TraceResult = z.object({
  /** The revision nodes the trace started from (a claim's bound revisions, or the one revision). */
  roots: z.array(z.string()),
  nodes: z.array(ProvNodeView),
  edges: z.array(ProvEdgeView),
  originalSources: z.array(OriginalSource),
  /** True when the depth or size bound cut the walk short; the sources found so far are partial. */
  truncated: z.boolean(),
});
export type TraceResult = z.infer<typeof TraceResult>;

export const provenanceChannels = {
  'prov:record': {
    request: z
      .object({
        /** Compartment of the declared nodes; stored evidence and sources keep their own. */
        tenant: z.string().min(1).max(512),
        classification: Classification,
        nodes: z.array(ProvNodeInput).max(500).default([]),
        edges: z.array(ProvEdgeInput).max(2000).default([]),
      })
      .strict(),
    response: z.object({ nodesAdded: z.array(z.string()), edgesAdded: z.number().int() }),
  },
  'provenance:trace': {
    request: z.union([
      z.object({ claimId: Id }).strict(),
      z.object({ revisionId: RevisionId }).strict(),
    ]),
    response: TraceResult,
  },
} as const;
