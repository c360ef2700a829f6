import type { HandlersFor } from '../dispatch';
import { exportStix } from '../interchange/stix/stixExport';
import { importStix } from '../interchange/stix/stixImport';

/** STIX 2.1 (and 2.0) bundles in and out (issue 10.3; mapping in resources/stix-mapping.md). */
export const stixHandlers = {
  // Reads and checks the whole file first (nothing written), then applies it in one transaction.
  'stix:import': (s, req) => importStix(s.context(), req),
  'stix:export': (s, req) => exportStix(s.context(), req.path),
} satisfies HandlersFor<'stix:import' | 'stix:export'>;
