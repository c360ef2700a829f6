import graph from 'virtual:graph-seed';
import { benchMode } from './mode';
import { installProbe } from './probe';

const mode = benchMode();
const probe = installProbe(mode);
const root = document.getElementById('root')!;
// Each mode loads only its own code and stylesheets: the plain page must not get the app's.
if (mode === 'plain') void import('./plainGraph').then(({ mountPlain }) => mountPlain(root, graph, probe));
else void import('./oursGraph').then(({ mountOurs }) => mountOurs(root, graph));
