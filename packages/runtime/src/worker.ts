// Worker threads running TypeScript sources. A worker's entry is a small .mjs that registers tsx (as
// the tongate command does) and imports the .ts; the parent's own `--import tsx` is left out of the
// worker's execArgv so that tsx is not registered twice. A worker refuses V8's options (heap sizes
// are per-thread resourceLimits; --trace-gc, --expose-gc, …): a flag goes on only when it is one of
// Node's own (those NODE_OPTIONS takes) or a profiler's, so that a flag given to the process for
// itself never stops a worker from starting.

const V8_IN_NODE_OPTIONS = /^--(max-old-space-size|max-semi-space-size|expose-gc|stack-size)/;
const PROFILERS = /^--(cpu|heap)-prof/;

/** The parent's execArgv as a worker thread of tongate takes it. */
export function workerExecArgv(): string[] {
  const out: string[] = [];
  const argv = process.execArgv;
  let kept = false; // whether the last flag went on (its value, given apart, goes with it)
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (!flag.startsWith("-")) {
      if (kept) out.push(flag);
      continue;
    }
    const name = flag.split("=")[0]!;
    const tsx = ((flag === "--import" || flag === "--loader") && /(^|\/)tsx(\/|$)/.test(argv[i + 1] ?? "")) || /^--(import|loader)=.*tsx/.test(flag);
    kept = !tsx && (PROFILERS.test(flag) || (process.allowedNodeEnvironmentFlags.has(name) && !V8_IN_NODE_OPTIONS.test(flag)));
    if (kept) out.push(flag);
  }
  return out;
}
