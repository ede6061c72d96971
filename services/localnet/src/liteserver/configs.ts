// What masterchain states carry besides accounts: the configuration (getConfigAll, getConfigParams),
// public libraries (getLibraries, getLibrariesWithProof) and block creation statistics
// (getValidatorStats), each with a Merkle proof of the state keeping the paths that were read.
import type { Cell } from "@ton/core";
import type { TlObject } from "@tongate/tl";
import type { BlockRecord } from "../chain/chain.js";
import {
  cellEdge,
  configParam,
  dictGet,
  dictNearest,
  inlineEdge,
  prevBlock,
  readMcStateOther,
  stateLibraries,
  unpackBlock,
  unpackBlockExtra,
  unpackMcBlockExtra,
  unpackMcStateExtra,
  unpackState,
  Usage,
} from "./cells.js";
import { type Ctx, boc, fatal, idStr, isMasterchainExt, stateRootProof, tlId, type TlBlockId } from "./context.js";
import type { LiteHandler } from "./dispatch.js";

/** block::ConfigInfo / block::Config mode bits a client may pass. */
const NEED_VALIDATOR_SET = 16;
const NEED_SPECIAL_SMC = 32;
const NEED_PREV_BLOCKS = 128;
const NEED_WORKCHAIN_INFO = 256;
const NEED_CAPABILITIES = 512;
/** getConfigParams/getConfigAll mode 0x8000: the configuration of the previous key block. */
const FROM_PREV_KEY_BLOCK = 0x8000;

/** What Config::unpack reads for the mode bits (besides the requested parameters). */
function visitModeParams(u: Usage, config: Cell, mode: number): void {
  if (mode & NEED_VALIDATOR_SET) {
    if (!configParam(u, config, 35, true)) configParam(u, config, 34, true);
  }
  if (mode & NEED_SPECIAL_SMC) {
    const p = configParam(u, config, 31, false);
    if (p) u.load(p);
  }
  if (mode & NEED_WORKCHAIN_INFO) configParam(u, config, 12, true);
  if (mode & NEED_CAPABILITIES) configParam(u, config, 8, true);
}

/** The previous key block of a masterchain block (the newest key block at or before it), if any. */
export function prevKeyBlock(ctx: Ctx, seqno: number): BlockRecord | undefined {
  const keys = ctx.chain.keyBlockSeqnos;
  for (let i = keys.length - 1; i >= 0; i--) if (keys[i]! <= seqno) return ctx.chain.mcBlock(keys[i]!);
  return undefined;
}

const sortUnique = (list: Buffer[]) => {
  const sorted = list.slice(0, 16).sort(Buffer.compare);
  return sorted.filter((h, i) => i === 0 || !h.equals(sorted[i - 1]!));
};

/** The LibDescr of a library in a libraries dictionary (HashmapE 256 LibDescr): its lib cell, or null. */
function lookupLibrary(u: Usage, root: Cell | null, hash: Buffer, publishers: boolean): Cell | null {
  const leaf = root ? dictGet(u, cellEdge(u, root), 256, BigInt("0x" + hash.toString("hex"))) : null;
  if (!leaf || leaf.remainingBits < 2 || leaf.preloadUint(2) !== 0 || leaf.remainingRefs === 0) return null;
  leaf.skip(2);
  const lib = leaf.loadRef();
  if (publishers) {
    // The first 16 publishers (Hashmap 256 True, non-empty, inline after lib).
    const edge = inlineEdge(leaf);
    let p = dictNearest(u, edge, 256, 0n, true, true);
    for (let i = 1; i < 16 && p; i++) p = dictNearest(u, edge, 256, p.key, true, false);
  }
  return lib;
}

export function configHandlers(ctx: Ctx): Record<string, LiteHandler> {
  const configInfo = (q: TlObject, params: number[] | null): TlObject => {
    const id = q.id as TlBlockId;
    const mode = q.mode as number;
    if (!isMasterchainExt(id)) throw fatal("configuration parameters can be loaded with respect to a masterchain block only");
    const visit = (u: Usage, config: Cell) => {
      visitModeParams(u, config, mode);
      if (!params) u.loadTree(config);
      else for (const p of params) configParam(u, config, p, true);
    };
    if (mode & FROM_PREV_KEY_BLOCK) {
      const last = ctx.last();
      if (id.seqno > last.id.seqno) throw fatal(`client knows block ${idStr(id)} newer than the reference masterchain block ${idStr(last)}`);
      if (!ctx.knownMc(id)) throw fatal(`requested masterchain block ${idStr(id)} is unknown from the perspective of reference block ${idStr(last)}`);
      const key = prevKeyBlock(ctx, id.seqno);
      if (!key) throw fatal(`cannot load the previous key block of ${idStr(id)}: it is the zero state, not a block`);
      const u = new Usage(key.root);
      const blk = unpackBlock(u, key.root);
      u.loadTree(blk.info);
      const extra = unpackBlockExtra(u, blk.extra);
      const mcExtra = extra.custom ? unpackMcBlockExtra(u, extra.custom) : null;
      if (!mcExtra?.config) throw fatal("cannot extract configuration from key block");
      visit(u, mcExtra.config);
      return { kind: "liteServer.configInfo", mode: mode & 0xffff, id: tlId(key), state_proof: Buffer.alloc(0), config_proof: boc(u.proof()) };
    }
    const mc = ctx.mcBlock(id);
    const u = new Usage(mc.stateRoot);
    const st = unpackState(u, mc.stateRoot);
    if (!st.custom) throw fatal("cannot extract configuration from last mc state");
    const extra = unpackMcStateExtra(u, st.custom);
    visit(u, extra.config);
    if (mode & NEED_PREV_BLOCKS) {
      // ConfigInfo with prev blocks: the capabilities and the last masterchain blocks (get_prev_blocks_info).
      configParam(u, extra.config, 8, true);
      const other = readMcStateOther(u, extra.other);
      for (let s = Math.max(mc.id.seqno - 16, 0); s < mc.id.seqno; s++) prevBlock(u, other.prevBlocks, s);
    }
    return { kind: "liteServer.configInfo", mode: mode & 0xffff, id: tlId(mc), state_proof: boc(stateRootProof(ctx, mc)), config_proof: boc(u.proof()) };
  };

  return {
    "liteServer.getConfigAll": (q) => configInfo(q, null),

    "liteServer.getConfigParams": (q) => configInfo(q, q.param_list as number[]),

    "liteServer.getLibraries": (q) => {
      const mc = ctx.last();
      const u = new Usage(mc.stateRoot);
      const root = stateLibraries(u, unpackState(u, mc.stateRoot).other);
      const result: TlObject[] = [];
      for (const hash of sortUnique(q.library_list as Buffer[])) {
        const lib = lookupLibrary(u, root, hash, false);
        if (lib && lib.hash().equals(hash)) result.push({ kind: "liteServer.libraryEntry", hash, data: boc(lib) });
      }
      return { kind: "liteServer.libraryResult", result };
    },

    "liteServer.getLibrariesWithProof": (q) => {
      const mode = q.mode as number;
      const mc = ctx.mcBlock(q.id as TlBlockId);
      const u = new Usage(mc.stateRoot);
      const root = stateLibraries(u, unpackState(u, mc.stateRoot).other);
      const result: TlObject[] = [];
      for (const hash of sortUnique(q.library_list as Buffer[])) {
        const lib = lookupLibrary(u, root, hash, (mode & 1) !== 0);
        if (lib && lib.hash().equals(hash)) result.push({ kind: "liteServer.libraryEntry", hash, data: mode & 2 ? Buffer.alloc(0) : boc(lib) });
      }
      return {
        kind: "liteServer.libraryResultWithProof",
        id: tlId(mc),
        mode,
        result,
        state_proof: boc(stateRootProof(ctx, mc)),
        data_proof: boc(u.proof()),
      };
    },

    "liteServer.getValidatorStats": (q) => {
      const mode = q.mode as number;
      const limit = q.limit as number;
      if (limit <= 0) throw fatal("requested entry count limit must be positive");
      if (mode & ~7) throw fatal("unknown flags set in mode");
      const mc = ctx.mcBlock(q.id as TlBlockId);
      const u = new Usage(mc.stateRoot);
      const st = unpackState(u, mc.stateRoot);
      const stats = st.custom ? readMcStateOther(u, unpackMcStateExtra(u, st.custom).other).createStats : null;
      // localnet's masterchain states carry no block_create_stats (McStateExtra flags = 0), as TON answers then.
      if (!stats) throw fatal("cannot extract block create stats from mc state");
      let key = mode & 1 ? BigInt("0x" + (q.start_after as Buffer).toString("hex")) : 0n;
      let allowEq = (mode & 3) !== 1;
      let count = 0;
      let complete = false;
      for (; count < Math.min(limit, 1000); count++) {
        const v = stats.root ? dictNearest(u, cellEdge(u, stats.root), 256, key, true, allowEq) : null;
        if (!v) {
          complete = true;
          break;
        }
        key = v.key;
        allowEq = false;
      }
      return {
        kind: "liteServer.validatorStats",
        mode: mode & 0xff,
        id: tlId(mc),
        count,
        complete,
        state_proof: boc(stateRootProof(ctx, mc)),
        data_proof: boc(u.proof()),
      };
    },
  };
}
