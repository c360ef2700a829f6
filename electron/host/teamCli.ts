import { runTeamCommand } from './teamCommand';

// `npm run team -- …`: the team server's commands (see TEAM_USAGE).
runTeamCommand(process.argv.slice(2), {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
}).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`team: ${(err as Error).message}\n`);
    process.exit(1);
  },
);
