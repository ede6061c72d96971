// liteServer.configInfo (getConfigParams / getConfigAll).
import { type Cell, type Dictionary, Dictionary as Dict } from "@ton/core";
import { KEY_WORKCHAIN, configParamValue } from "@tongate/block";
import { assertComplete, deserializeBoc, isPruned } from "./cells.js";
import { checkStateMatchesBlock, expectMasterchain, expectTrustedId } from "./common.js";
import { fail, guard } from "./errors.js";
import { checkBlockProofBoc } from "./header.js";
import { type ConfigRoot, loadMcBlockExtra, loadMcStateExtra, loadProvenBlockExtra, lookupConfigParam, openStateProof } from "./state.js";
import { dictItems } from "./dict.js";
import { type LiteServerConfigInfo, type TonNodeBlockIdExt, checkShape } from "./tl.js";

/** configInfo.mode bit: the config comes from the previous key block (McBlockExtra), not from the state. */
export const CONFIG_FROM_KEY_BLOCK = 0x8000;

export type ConfigRequest = { params: number[] } | { all: true };

export interface VerifiedConfig {
  id: TonNodeBlockIdExt;
  mode: number;
  fromKeyBlock: boolean;
  configAddr: Buffer;
  /** Every config param the proof carries whole, keyed like ConfigParams (use with @tongate/block accessors). */
  params: Dictionary<number, Cell>;
  /** Requested params proven absent from the config. */
  absent: number[];
}

/** Params of a proven config: whole values only (a param with pruned parts is left out). */
function provenParams(config: ConfigRoot, what: string): { params: Dictionary<number, Cell>; pruned: boolean } {
  const params = Dict.empty(KEY_WORKCHAIN, configParamValue);
  let pruned = false;
  for (const item of dictItems(config.root, 32, `${what}: ConfigParams`)) {
    if (item.type === "pruned") {
      pruned = true;
      continue;
    }
    const cell = item.value.loadRef();
    try {
      assertComplete(cell, "");
      params.set(Number(BigInt.asIntN(32, item.key)), cell);
    } catch {
      pruned = true;
    }
  }
  return { params, pruned };
}

/**
 * The ConfigParams a configInfo proves, from its two proofs: normally state_proof = the masterchain block
 * with state_update and config_proof = the masterchain state reaching McStateExtra.config; with mode 0x8000
 * state_proof is empty and config_proof is a Merkle proof of the key block `id` itself (McBlockExtra.config).
 */
export function verifyConfig(answer: LiteServerConfigInfo | object, trusted: TonNodeBlockIdExt, request?: ConfigRequest): VerifiedConfig {
  const what = "liteServer.configInfo";
  const a = checkShape<LiteServerConfigInfo>(answer, what, { mode: "int", id: "id", state_proof: "bytes", config_proof: "bytes" });
  return guard(what, () => {
    expectTrustedId(a.id, trusted, what);
    expectMasterchain(a.id, what);
    const fromKeyBlock = (a.mode & CONFIG_FROM_KEY_BLOCK) !== 0;
    let config: ConfigRoot;
    if (fromKeyBlock) {
      if (a.state_proof.length !== 0) fail(`${what}: state_proof must be empty for a config from a key block (mode 0x8000)`);
      const block = checkBlockProofBoc(a.config_proof, a.id, `${what}: config_proof (key block)`);
      if (!block.info.keyBlock) fail(`${what}: mode 0x8000 but the block is not a key block`);
      const mc = loadMcBlockExtra(loadProvenBlockExtra(block, `${what}: config_proof`).custom, `${what}: config_proof`);
      if (!mc.config) fail(`${what}: key block has no config in McBlockExtra`);
      config = mc.config;
    } else {
      const block = checkBlockProofBoc(a.state_proof, a.id, `${what}: state_proof`, { stateHash: true });
      const [cp] = deserializeBoc(a.config_proof, `${what}: config_proof`, 1);
      const { state } = openStateProof(cp, block.stateHash!, `${what}: config_proof (masterchain state)`);
      checkStateMatchesBlock(state, a.id, `${what}: config_proof`);
      config = loadMcStateExtra(state, `${what}: config_proof`).config;
    }
    const { params, pruned } = provenParams(config, what);
    const absent: number[] = [];
    if (request && "all" in request) {
      if (pruned) fail(`${what}: the whole config was requested but parts of it are pruned`);
      assertComplete(config.root, `${what}: ConfigParams`);
    } else if (request) {
      for (const id of request.params) {
        const r = lookupConfigParam(config, id, what);
        if (r.type === "absent") absent.push(id);
        else if (!params.has(id)) fail(`${what}: config param ${id} was requested but is incomplete in the proof`);
      }
    }
    return { id: a.id, mode: a.mode, fromKeyBlock, configAddr: config.configAddr, params, absent };
  });
}

/**
 * The Merkle step of verifyConfig alone: a config_proof BoC (MERKLE_PROOF of a masterchain state) against
 * the state hash proven elsewhere (a block's state_update). For fixtures without the block proof.
 */
export function verifyMcStateConfigProof(configProof: Buffer, stateHash: Buffer): { configAddr: Buffer; params: Dictionary<number, Cell>; complete: boolean } {
  const what = "config_proof";
  return guard(what, () => {
    const [cp] = deserializeBoc(configProof, what, 1);
    const { state } = openStateProof(cp, stateHash, `${what} (masterchain state)`);
    const config = loadMcStateExtra(state, what).config;
    const { params, pruned } = provenParams(config, what);
    return { configAddr: config.configAddr, params, complete: !pruned && !isPruned(config.root) };
  });
}

