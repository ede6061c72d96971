// Worker threads running TypeScript sources. A worker's entry is a small .mjs that registers tsx (as
// the tongate command does) and imports the .ts; the parent's own `--import tsx` is left out of the
// worker's execArgv so that tsx is not registered twice, and heap sizes are left out because a
// worker refuses them there (they are per-thread resourceLimits).

/** The parent's execArgv as a worker thread of tongate takes it. */
export function workerExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  for (let i = 0; i < argv.length; i++) {
    if ((argv[i] === "--import" || argv[i] === "--loader") && /(^|\/)tsx(\/|$)/.test(argv[i + 1] ?? "")) i++;
    else if (!/^--(import|loader)=.*tsx/.test(argv[i]!) && !/^--max-(old|semi)-space-size/.test(argv[i]!)) out.push(argv[i]!);
  }
  return out;
}
