// --data-dir: the chain's genesis parameters (genesis.json) and its ChainStore (chain.mdb: blocks,
// transactions, states). Without --data-dir the store lives in a temporary directory removed on
// close, so memory stays bounded either way. A directory written by an older tongate holds a
// journal (journal.jsonl: accepted external messages and seal times); it is replayed into the
// store once and kept as journal.jsonl.replayed.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ChainStore } from "./chain/store.js";

export interface StoredGenesis {
  seed: string;
  wallets: number;
  now: number;
  globalId: number;
}

export type JournalEntry = { t: "ext"; boc: string; out?: number } | { t: "seal"; now: number };

export class DataDir {
  private constructor(
    readonly path: string,
    readonly genesis: StoredGenesis,
    readonly store: ChainStore,
    /** A legacy journal to replay into the empty store, if the directory has one. */
    readonly journal: JournalEntry[] | undefined,
  ) {}

  /**
   * Opens (or creates) a data directory; `wanted` must match what it was created with. Without
   * `dir`, a temporary one that close() removes.
   */
  static open(dir: string | undefined, wanted: StoredGenesis): DataDir {
    const temporary = dir === undefined;
    const path = dir ?? mkdtempSync(join(tmpdir(), "tongate-localnet-"));
    mkdirSync(path, { recursive: true });
    const genesisPath = join(path, "genesis.json");
    let genesis = wanted;
    if (existsSync(genesisPath)) {
      genesis = JSON.parse(readFileSync(genesisPath, "utf8")) as StoredGenesis;
      if (genesis.seed !== wanted.seed || genesis.wallets !== wanted.wallets || genesis.globalId !== wanted.globalId) {
        throw new Error(`${path} holds a chain made with seed "${genesis.seed}", ${genesis.wallets} wallets, global id ${genesis.globalId}; start it with the same options or use another --data-dir`);
      }
    } else {
      // write + rename: a crash never leaves a half-written genesis
      writeFileSync(genesisPath + ".tmp", JSON.stringify(genesis, null, 2));
      renameSync(genesisPath + ".tmp", genesisPath);
    }
    const store = new ChainStore({ path: join(path, "chain.mdb"), temporary, removeDir: temporary ? path : undefined });
    const journalPath = join(path, "journal.jsonl");
    const journal = !store.getMeta("head") && existsSync(journalPath) ? readJournal(journalPath) : undefined;
    return new DataDir(path, genesis, store, journal);
  }

  /** The legacy journal went into the store: keep it aside, never replay it again. */
  replayed(): void {
    const journalPath = join(this.path, "journal.jsonl");
    if (this.journal && existsSync(journalPath)) renameSync(journalPath, journalPath + ".replayed");
  }
}

function readJournal(path: string): JournalEntry[] {
  const entries: JournalEntry[] = [];
  const lines = readFileSync(path, "utf8").split("\n");
  for (const [i, line] of lines.entries()) {
    if (!line) continue;
    try {
      entries.push(JSON.parse(line) as JournalEntry);
    } catch {
      // A line cut by a crash can only be the last one: what it recorded never completed.
      if (i < lines.length - 2) throw new Error(`${path}: line ${i + 1} is damaged`);
    }
  }
  return entries;
}
