import { readFileSync } from 'node:fs';

/**
 * Where a command-line run gets the acting reviewer's passphrase (issue 9.4), in this order:
 * a file descriptor or file named by --passphrase-fd / --passphrase-file (for scripts, so the
 * passphrase is never in argv or the environment of child processes), the ERWB_PASSPHRASE
 * environment variable, or a prompt on the terminal that does not echo.
 */
export interface PassphraseSource {
  fd?: string | undefined;
  file?: string | undefined;
}

export async function readPassphrase(actorId: string, from: PassphraseSource = {}): Promise<string> {
  if (from.fd !== undefined) return firstLine(readFileSync(Number(from.fd), 'utf8'));
  if (from.file !== undefined) return firstLine(readFileSync(from.file, 'utf8'));
  const env = process.env.ERWB_PASSPHRASE;
  if (env !== undefined && env !== '') return env;
  if (!process.stdin.isTTY) {
    throw new Error(`acting as ${actorId} needs their passphrase: set ERWB_PASSPHRASE, pass --passphrase-fd <n> or --passphrase-file <path>, or run in a terminal to be asked`);
  }
  return prompt(`Passphrase for ${actorId}: `);
}

const firstLine = (text: string): string => text.split(/\r?\n/)[0] ?? '';

function prompt(question: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(question);
    stdin.setRawMode(true);
    stdin.resume();
    stdin.setEncoding('utf8');
    let typed = '';
    const done = (err?: Error) => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done();
        if (ch === '\u0003') return done(new Error('cancelled'));
        if (ch === '\u007f' || ch === '\b') typed = typed.slice(0, -1);
        else typed += ch;
      }
    };
    stdin.on('data', onData);
  });
}
