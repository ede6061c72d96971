// getBlockProof: a chain of masterchain block links from a block the client trusts (`known_block`, the
// zero state at first) to `target_block` or the newest block, built as TON's construct_proof_chain
// builds it: back to the previous key block when `from` is not one (blockLinkBack: the state of the
// newer block lists the older one in prev_blocks), then forward from key block to key block and on to
// the target (blockLinkForward: the destination's header and its validators' signatures, with the
// validator set from ConfigParam 34 of the source key block or zero state). At most 16 links; a longer
// chain is answered incomplete and the client asks again from where it ends.
import type { Cell } from "@ton/core";
import type { TlObject } from "@tongate/tl";
import type { BlockRecord } from "../chain/chain.js";
import { configParam, prevBlock, readMcStateOther, unpackBlock, unpackBlockExtra, unpackMcBlockExtra, unpackMcStateExtra, unpackState, Usage } from "./cells.js";
import { type Ctx, boc, fatal, headerProof, idStr, isMasterchainExt, type McRef, stateRootProof, tlBlockId, type TlBlockId } from "./context.js";
import type { LiteHandler } from "./dispatch.js";
import { notInDb } from "./errors.js";

const MAX_LINKS = 16;

const refOf = (rec: BlockRecord): McRef => ({ seqno: rec.id.seqno, rootHash: rec.id.rootHash, fileHash: rec.id.fileHash, rec });
const tlMc = (r: McRef) => tlBlockId({ workchain: -1, shard: 0x8000000000000000n, seqno: r.seqno, rootHash: r.rootHash, fileHash: r.fileHash });
const same = (a: McRef, b: McRef) => a.seqno === b.seqno && a.rootHash.equals(b.rootHash) && a.fileHash.equals(b.fileHash);
const isKey = (r: McRef) => (r.rec ? r.rec.keyBlock : true);

/** The validator set the forward link's signatures are checked against: ConfigParam 35 (or 34) and 28 (catchain config). */
function visitValidatorConfig(u: Usage, config: Cell): void {
  if (!configParam(u, config, 35, true)) configParam(u, config, 34, true);
  configParam(u, config, 28, true);
}

export function blockProofHandlers(ctx: Ctx): Record<string, LiteHandler> {
  const { chain } = ctx;
  const zeroRef = (): McRef => ({ seqno: 0, rootHash: chain.mcZero.rootHash, fileHash: chain.mcZero.fileHash, rec: null });

  /** blockLinkBack cur → next: cur's header pins its state, whose prev_blocks lists next. */
  const backLink = (cur: McRef, next: McRef): TlObject => {
    const rec = cur.rec!;
    const u = new Usage(rec.stateRoot);
    const st = unpackState(u, rec.stateRoot);
    const other = readMcStateOther(u, unpackMcStateExtra(u, st.custom!).other);
    const old = prevBlock(u, other.prevBlocks, next.seqno);
    if (!old || !old.rootHash.equals(next.rootHash) || !old.fileHash.equals(next.fileHash)) {
      throw fatal(`cannot prove that ${idStr(next)} is in the previous block set of the masterchain state of ${idStr(cur)}`);
    }
    return {
      kind: "liteServer.blockLinkBack",
      to_key_block: isKey(next),
      from: tlMc(cur),
      to: tlMc(next),
      dest_proof: next.rec ? boc(headerProof(next.rec.root)) : Buffer.alloc(0),
      proof: boc(stateRootProof(ctx, rec)),
      state_proof: boc(u.proof()),
    };
  };

  /** blockLinkForward cur → next: the config of key block (or zero state) cur gives the validators that signed next. */
  const forwardLink = (cur: McRef, next: McRef): TlObject => {
    let u: Usage;
    if (!cur.rec) {
      u = new Usage(chain.mcZero.root);
      const st = unpackState(u, chain.mcZero.root);
      visitValidatorConfig(u, unpackMcStateExtra(u, st.custom!).config);
    } else {
      u = new Usage(cur.rec.root);
      const blk = unpackBlock(u, cur.rec.root);
      u.loadTree(blk.info);
      const extra = unpackBlockExtra(u, blk.extra);
      const mc = extra.custom ? unpackMcBlockExtra(u, extra.custom) : null;
      if (!mc?.config) throw fatal(`cannot extract configuration from source key block ${idStr(cur)} of a forward BlockProofLink: not a key block`);
      visitValidatorConfig(u, mc.config);
    }
    const dest = next.rec!;
    const info = dest.block.info;
    if (dest.signatures.length === 0) throw fatal(`cannot extract signature set from proof for block ${idStr(next)} : no signatures`);
    return {
      kind: "liteServer.blockLinkForward",
      to_key_block: info.keyBlock,
      from: tlMc(cur),
      to: tlMc(next),
      dest_proof: boc(headerProof(dest.root)),
      config_proof: boc(u.proof()),
      signatures: {
        kind: "liteServer.signatureSet.ordinary",
        // The signing session is the one named in the block header.
        validator_set_hash: info.genValidatorListHashShort | 0,
        catchain_seqno: info.genCatchainSeqno | 0,
        signatures: dest.signatures.map((s) => ({ kind: "liteServer.signature", node_id_short: s.nodeIdShort, signature: s.signature })),
      },
    };
  };

  return {
    "liteServer.getBlockProof": (q) => {
      const mode = q.mode as number;
      const from = q.known_block as TlBlockId;
      const target = mode & 1 ? (q.target_block as TlBlockId) : undefined;
      if (!isMasterchainExt(from)) throw fatal(`source block ${idStr(from)} is not a valid masterchain block id`);
      if (target && !isMasterchainExt(target)) throw fatal(`destination block ${idStr(target)} is not a valid masterchain block id`);
      const last = refOf(ctx.last());
      let base = last;
      if (target && mode & 0x1000) {
        const b = from.seqno > target.seqno ? from : target;
        const k = ctx.knownMc(b);
        if (!k) throw notInDb(`state of ${idStr(b)}`);
        base = k;
      }
      const to = target ?? (tlMc(last) as unknown as TlBlockId);
      for (const id of [from, to]) {
        if (id.seqno > base.seqno) throw fatal(`client knows block ${idStr(id)} newer than the reference masterchain block ${idStr(base)}`);
      }
      const fromRef = ctx.knownMc(from);
      if (!fromRef) throw fatal(`proof source masterchain block ${idStr(from)} is unknown from the perspective of reference block ${idStr(base)}`);
      const toRef = ctx.knownMc(to);
      if (!toRef) throw fatal(`proof destination masterchain block ${idStr(to)} is unknown from the perspective of reference block ${idStr(base)}`);

      // the key blocks are few and listed: no walk over every block
      const keys = chain.keyBlockSeqnos;
      const keyRef = (s: number) => refOf(chain.mcBlock(s)!);
      const prevKey = (seqno: number): McRef => {
        for (let i = keys.length - 1; i >= 0; i--) if (keys[i]! <= seqno) return keyRef(keys[i]!);
        return zeroRef();
      };
      const nextKey = (seqno: number): McRef | undefined => {
        const s = keys.find((k) => k >= seqno && k <= base.seqno);
        return s === undefined ? undefined : keyRef(s);
      };

      const steps: TlObject[] = [];
      let cur = fromRef;
      while (steps.length < MAX_LINKS && !same(cur, toRef)) {
        if (toRef.seqno === cur.seqno) throw fatal(`cannot have two different masterchain blocks ${idStr(toRef)} and ${idStr(cur)} of the same height`);
        let next: McRef;
        if (toRef.seqno < cur.seqno) {
          next = toRef;
          steps.push(backLink(cur, next));
        } else {
          const pk = prevKey(cur.seqno);
          if (pk.seqno !== cur.seqno) {
            next = pk;
            steps.push(backLink(cur, next));
          } else {
            next = nextKey(cur.seqno + 1) ?? toRef;
            steps.push(forwardLink(cur, next));
          }
        }
        cur = next;
      }
      return { kind: "liteServer.partialBlockProof", complete: same(cur, toRef), from: tlMc(fromRef), to: tlMc(cur), steps };
    },
  };
}
