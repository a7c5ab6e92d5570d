import { createInterface } from 'node:readline';

/**
 * Reads a password from a hidden prompt on a terminal, or the first line of standard
 * input when piped (`echo "$PW" | npm run admin -- create a@b.c`). Never from argv, where
 * it would show in `ps` and shell history.
 */
export async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) {
    let input = '';
    for await (const chunk of process.stdin) input += String(chunk);
    return input.split(/\r?\n/)[0] ?? '';
  }
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    let prompted = false;
    output._writeToOutput = (s: string) => {
      // Show the prompt once, then nothing of what is typed.
      if (!prompted) {
        process.stdout.write(s);
        prompted = true;
      }
    };
    rl.question(prompt, (answer) => {
      rl.close();
      process.stdout.write('\n');
      resolve(answer);
    });
  });
}
