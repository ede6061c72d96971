// API v2 methods over the chain: masterchain info, consensus block, account information, balance and state.
import { create } from "@bufbuild/protobuf";
import { apiError } from "@tongate/runtime";
import {
  GetAddressBalanceResponseSchema,
  GetAddressInformationResponseSchema,
  GetAddressStateResponseSchema,
  type GetAddressBalanceRequest,
  type GetAddressInformationRequest,
  type GetAddressStateRequest,
} from "@tongate/proto/gen/tongate/v2/accounts_pb.js";
import { GetConsensusBlockResponseSchema, GetMasterchainInfoResponseSchema } from "@tongate/proto/gen/tongate/v2/blocks_pb.js";
import { MASTERCHAIN_SHARD, type BlockIdExt, type ChainReader } from "./chain.js";
import { addressParam, cellBoc, tonBlockId, transactionId } from "./values.js";

/** A block id; the zero state's (getMasterchainInfo's `init`) has no shard or seqno on the wire. */
const blockId = (b: { workchain: number; shard?: bigint; seqno?: number; root_hash: Buffer; file_hash: Buffer }) =>
  tonBlockId({ ...b, shard: b.shard ?? MASTERCHAIN_SHARD, seqno: b.seqno ?? 0 });

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
    async getAddressInformation(req: GetAddressInformationRequest) {
      const a = await chain.account("getAddressInformation", addressParam("address", req.address), req.seqno);
      return create(GetAddressInformationResponseSchema, {
        balance: a.balance,
        extraCurrencies: [],
        code: cellBoc(a.code),
        data: cellBoc(a.data),
        lastTransactionId: transactionId(a.lastTransLt, a.lastTransHash),
        blockId: blockId(a.block),
        frozenHash: a.frozenHash ?? new Uint8Array(),
        syncUtime: a.syncUtime,
        state: a.status,
      });
    },
    async getAddressBalance(req: GetAddressBalanceRequest) {
      const a = await chain.account("getAddressBalance", addressParam("address", req.address), req.seqno);
      return create(GetAddressBalanceResponseSchema, { result: a.balance });
    },
    async getAddressState(req: GetAddressStateRequest) {
      const a = await chain.account("getAddressState", addressParam("address", req.address), req.seqno);
      return create(GetAddressStateResponseSchema, { result: a.status });
    },
  };
}
