// `tongate classify --trace FILE.json`: one trace's actions as API v3 shows them, from a trace file
// in the format of toncenter's classifier fixtures (trace, transactions, interfaces). The same
// classifier the decoder runs; nothing is started and nothing is read but the file.
import { classifyTrace, expandActionTypeShortcuts, isActionVisible, readTraceFile, renderAction, TraceFileError } from "@tongate/actions";
import { ConfigError, parseOptions, usage, type OptionSpec } from "@tongate/runtime";

export interface ClassifyIo {
  out: (text: string) => void;
  err: (text: string) => void;
  env: NodeJS.ProcessEnv;
}

const options: OptionSpec[] = [
  { name: "trace", env: "TONGATE_CLASSIFY_TRACE", description: "FILE.json: the trace, its transactions with their messages and the interfaces of its addresses" },
  {
    name: "supported-action-types",
    env: "TONGATE_CLASSIFY_SUPPORTED_ACTION_TYPES",
    repeated: true,
    description: "action types and versions the client understands (v1, v2, v3, v4, latest, staking, jettons, nft, …; repeat or separate with commas); default latest",
  },
];

export function classifyHelp(): string {
  return `tongate classify: print one trace's actions as /api/v3/actions does\n${usage(options)}\n`;
}

/** Runs `tongate classify …`; the exit code. */
export async function classifyCommand(argv: string[], io: ClassifyIo = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), env: process.env }): Promise<number> {
  if (argv.includes("--help")) {
    io.out(classifyHelp());
    return 0;
  }
  let file: string;
  let supported: string[];
  try {
    const o = parseOptions(argv, options, io.env);
    if (typeof o.trace !== "string" || o.trace === "") throw new ConfigError("needs --trace FILE.json");
    file = o.trace;
    const listed = Array.isArray(o["supported-action-types"]) ? o["supported-action-types"] : [];
    supported = listed.flatMap((s) => String(s).split(",")).map((s) => s.trim()).filter(Boolean);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    io.err(`tongate classify: ${e.message}\n`);
    return 2;
  }
  let loaded;
  try {
    loaded = readTraceFile(file);
  } catch (e) {
    const why = e instanceof TraceFileError || e instanceof SyntaxError ? e.message : e instanceof Error && "code" in e ? `${String(e.code)} ${e.message}` : String(e);
    io.err(`tongate classify: --trace ${file}: ${why}\n`);
    return 2;
  }
  const result = classifyTrace(loaded.trace, loaded.lookup);
  if (result.state !== "ok") io.err(`tongate classify: classification ${result.state}${result.error ? `: ${result.error}` : ""}\n`);
  const types = expandActionTypeShortcuts(supported);
  const actions = result.actions.filter((a) => isActionVisible(a, types)).map((a) => renderAction(a));
  io.out(JSON.stringify({ actions }, null, 2) + "\n");
  return 0;
}
