// --data-dir: the chain persists as its genesis parameters plus a journal of what
// changed it (accepted external messages, seals with their times). Blocks are
// deterministic given those, so a restart replays the journal and continues from
// the same head with the same hashes. Each entry is appended synchronously.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChainJournal } from "./chain/chain.js";

export interface StoredGenesis {
  seed: string;
  wallets: number;
  now: number;
  globalId: number;
}

export type JournalEntry = { t: "ext"; boc: string; out?: number } | { t: "seal"; now: number };

export class DataDir {
  private replaying = true;

  private constructor(
    private readonly journalPath: string,
    readonly genesis: StoredGenesis,
    readonly entries: JournalEntry[],
  ) {}

  /** Opens (or creates) the data directory; `wanted` must match what the directory was created with. */
  static open(dir: string, wanted: StoredGenesis): DataDir {
    mkdirSync(dir, { recursive: true });
    const genesisPath = join(dir, "genesis.json");
    const journalPath = join(dir, "journal.jsonl");
    let genesis = wanted;
    if (existsSync(genesisPath)) {
      genesis = JSON.parse(readFileSync(genesisPath, "utf8")) as StoredGenesis;
      if (genesis.seed !== wanted.seed || genesis.wallets !== wanted.wallets || genesis.globalId !== wanted.globalId) {
        throw new Error(`${dir} holds a chain made with seed "${genesis.seed}", ${genesis.wallets} wallets, global id ${genesis.globalId}; start it with the same options or use another --data-dir`);
      }
    } else {
      writeFileSync(genesisPath, JSON.stringify(genesis, null, 2));
    }
    const entries: JournalEntry[] = [];
    if (existsSync(journalPath)) {
      const lines = readFileSync(journalPath, "utf8").split("\n");
      for (const [i, line] of lines.entries()) {
        if (!line) continue;
        try {
          entries.push(JSON.parse(line) as JournalEntry);
        } catch {
          // A line cut by a crash can only be the last one: what it recorded never completed.
          if (i < lines.length - 2) throw new Error(`${journalPath}: line ${i + 1} is damaged`);
        }
      }
    }
    return new DataDir(journalPath, genesis, entries);
  }

  /** The journal the chain writes to; silent while the stored entries are replayed. */
  readonly journal: ChainJournal = {
    external: (boc, out) => this.append(out === undefined ? { t: "ext", boc: boc.toString("base64") } : { t: "ext", boc: boc.toString("base64"), out }),
    seal: (now) => this.append({ t: "seal", now }),
  };

  replayed(): void {
    this.replaying = false;
  }

  private append(e: JournalEntry): void {
    if (!this.replaying) appendFileSync(this.journalPath, JSON.stringify(e) + "\n");
  }
}
