// liteServer.libraryResultWithProof (getLibrariesWithProof): every asked-for hash is proven present in,
// or absent from, the masterchain state's `libraries` (HashmapE 256 LibDescr); each returned library
// cell must hash to its key.
import type { Cell } from "@ton/core";
import { deserializeBoc, hex } from "./cells.js";
import { checkStateMatchesBlock, expectMasterchain, expectTrustedId } from "./common.js";
import { dictELookup } from "./dict.js";
import { fail, guard } from "./errors.js";
import { checkBlockProofBoc } from "./header.js";
import { openStateProof } from "./state.js";
import { type LiteServerLibraryResultWithProof, type TonNodeBlockIdExt, checkShape } from "./tl.js";

/** libraryResultWithProof.mode bit: the entries carry no data (their presence is proven all the same). */
export const LIBRARIES_WITHOUT_DATA = 2;

export interface VerifiedLibraries {
  id: TonNodeBlockIdExt;
  mode: number;
  /** Hashes proven to be public libraries of the state, in the order asked. */
  found: Buffer[];
  /** Their cells, checked against their hashes (none with mode 2). */
  libraries: Cell[];
  /** Hashes proven absent. */
  absent: Buffer[];
}

/** Verifies a getLibrariesWithProof answer for the hashes `requested` (the library_list sent). */
export function verifyLibraries(answer: LiteServerLibraryResultWithProof | object, trusted: TonNodeBlockIdExt, requested: Buffer[]): VerifiedLibraries {
  const what = "liteServer.libraryResultWithProof";
  const a = checkShape<LiteServerLibraryResultWithProof>(answer, what, { mode: "int", id: "id", result: "vector", state_proof: "bytes", data_proof: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    expectMasterchain(a.id, what);
    const block = checkBlockProofBoc(a.state_proof, a.id, `${what}: state_proof`, { stateHash: true });
    const [dp] = deserializeBoc(a.data_proof, `${what}: data_proof`, 1);
    const { state } = openStateProof(dp, block.stateHash!, `${what}: data_proof (masterchain state)`);
    checkStateMatchesBlock(state, a.id, `${what}: data_proof`);
    if (!state.other) fail(`${what}: data_proof: the state's libraries are pruned`);
    const entries = new Map<string, Buffer>();
    for (const e of a.result) {
      if (!requested.some((h) => h.equals(e.hash))) fail(`${what}: library ${hex(e.hash)} was not asked for`);
      entries.set(hex(e.hash), e.data);
    }
    const out: VerifiedLibraries = { id: a.id, mode: a.mode, found: [], libraries: [], absent: [] };
    for (const hash of requested) {
      const r = dictELookup(state.other.libraries, 256, BigInt(`0x${hex(hash)}`), `${what}: libraries`);
      if (r.type === "pruned") fail(`${what}: library ${hex(hash)} is pruned in the proof`);
      const data = entries.get(hex(hash));
      if (r.type === "absent") {
        if (data !== undefined) fail(`${what}: library ${hex(hash)} is returned but proven absent`);
        out.absent.push(hash);
        continue;
      }
      // shared_lib_descr$00 lib:^Cell publishers:(Hashmap 256 True)
      if (r.value.remainingBits < 2 || r.value.loadUint(2) !== 0 || r.value.remainingRefs === 0) fail(`${what}: library ${hex(hash)}: not a LibDescr`);
      if (data === undefined) fail(`${what}: library ${hex(hash)} is in the state but left out of the answer`);
      out.found.push(hash);
      if (a.mode & LIBRARIES_WITHOUT_DATA) continue;
      const [cell] = deserializeBoc(data, `${what}: library ${hex(hash)}`, 1);
      if (!cell!.hash().equals(hash)) fail(`${what}: library ${hex(hash)}: its data hashes to ${hex(cell!.hash())}`);
      out.libraries.push(cell!);
    }
    return out;
  });
}
