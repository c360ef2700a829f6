// A Stryker reporter that appends each mutant's result to reports/mutation/live.ndjson as soon as
// it is tested, so a long run's survivors can be worked on before the run ends.
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { declareFactoryPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const FILE = 'reports/mutation/live.ndjson';

function liveReporter() {
  mkdirSync('reports/mutation', { recursive: true });
  writeFileSync(FILE, '');
  return {
    onMutantTested(result) {
      const { id, fileName, mutatorName, replacement, status, location, statusReason } = result;
      appendFileSync(FILE, `${JSON.stringify({ id, fileName, mutatorName, replacement, status, line: location.start.line, statusReason })}\n`);
    },
  };
}
liveReporter.inject = [];

export const strykerPlugins = [declareFactoryPlugin(PluginKind.Reporter, 'live', liveReporter)];
