// API v2 methods over the chain: masterchain info, consensus block, account balance and state.
import { create } from "@bufbuild/protobuf";
import { Address } from "@ton/core";
import { apiError } from "@tongate/runtime";
import { parseAddress } from "@tongate/ton";
import { GetAddressBalanceResponseSchema, GetAddressStateResponseSchema, type GetAddressBalanceRequest, type GetAddressStateRequest } from "@tongate/proto/gen/tongate/v2/accounts_pb.js";
import { GetConsensusBlockResponseSchema, GetMasterchainInfoResponseSchema } from "@tongate/proto/gen/tongate/v2/blocks_pb.js";
import { TonBlockIdExtSchema } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import type { BlockIdExt, ChainReader } from "./chain.js";

const blockId = (b: { workchain: number; shard?: bigint; seqno?: number; root_hash: Buffer; file_hash: Buffer }) =>
  create(TonBlockIdExtSchema, { workchain: b.workchain, shard: b.shard ?? -(2n ** 63n), seqno: b.seqno ?? 0, rootHash: b.root_hash, fileHash: b.file_hash });

function toAddress(param: string, value: string): Address {
  try {
    const a = parseAddress(value);
    return new Address(a.workchain, a.hash);
  } catch (e) {
    throw apiError(422, `${param}: ${(e as Error).message}`);
  }
}

export function chainMethods(chain: ChainReader) {
  return {
    async getMasterchainInfo() {
      const info = await chain.masterchainInfo("getMasterchainInfo");
      return create(GetMasterchainInfoResponseSchema, { last: blockId(info.last as BlockIdExt), stateRootHash: info.state_root_hash, init: blockId(info.init) });
    },
    getConsensusBlock() {
      const c = chain.consensus;
      if (!c) throw apiError(542, "no liteserver has answered yet: no consensus block");
      return create(GetConsensusBlockResponseSchema, { consensusBlock: c.seqno, timestamp: Math.floor(c.timestamp) });
    },
    async getAddressBalance(req: GetAddressBalanceRequest) {
      const a = await chain.account("getAddressBalance", toAddress("address", req.address), req.seqno);
      return create(GetAddressBalanceResponseSchema, { result: a.balance });
    },
    async getAddressState(req: GetAddressStateRequest) {
      const a = await chain.account("getAddressState", toAddress("address", req.address), req.seqno);
      return create(GetAddressStateResponseSchema, { result: a.status });
    },
  };
}
