// API v2: getBlockTransactions(Ext), getTransactions(Std), tryLocateTx, tryLocateResultTx, tryLocateSourceTx.
// Block listings are checked against the block's Merkle proofs, account histories as hash chains from a
// proven starting point (see block-transactions.ts and account-history.ts).
import { create } from "@bufbuild/protobuf";
import type { AccountAddress } from "@tongate/proof";
import {
  GetBlockTransactionsExtResponseSchema,
  GetBlockTransactionsResponseSchema,
  GetTransactionsResponseSchema,
  GetTransactionsStdResponseSchema,
  ShortTxIdSchema,
  TryLocateResultTxResponseSchema,
  TryLocateSourceTxResponseSchema,
  TryLocateTxResponseSchema,
  type GetBlockTransactionsExtRequest,
  type GetBlockTransactionsRequest,
  type GetTransactionsRequest,
  type GetTransactionsStdRequest,
  type TryLocateTxRequest,
} from "@tongate/proto/gen/tongate/v2/transactions_pb.js";
import { formatRaw, parseAddress, parseHash } from "@tongate/ton";
import { accountTransactions, lastTransaction, type TxCursor } from "./account-history.js";
import { resolveBlockId } from "./block-lookup.js";
import { type BlockIdExt } from "@tongate/liteclient";
import { blockTransactionIds, blockTransactions, type TxPosition } from "./block-transactions.js";
import type { ChainReader } from "./chain.js";
import { locateTransaction, type Side } from "./locate-transaction.js";
import type { PoolSession } from "@tongate/liteclient";
import { transaction, transactionExt, transactionStd } from "./transaction-view.js";
import { withInput } from "./utils.js";
import { addressParam, tonBlockId, transactionId } from "./values.js";

/** toncenter's defaults (v2.json). */
const DEFAULT_BLOCK_TX_COUNT = 40;
const DEFAULT_LIMIT = 10;

const address = (param: string, value: string): AccountAddress => {
  const a = addressParam(param, value);
  return { workchain: a.workChain, id: a.hash };
};

type BlockTxRequest = GetBlockTransactionsRequest | GetBlockTransactionsExtRequest;

/** after_lt + after_hash (the account: a 256-bit id in hex or base64, or an address), given together or not at all. */
function afterOf(req: BlockTxRequest): TxPosition | undefined {
  if (req.afterLt === undefined || req.afterHash === undefined) return undefined;
  const value = req.afterHash;
  const account = withInput("after_hash", value, () => {
    try {
      return parseAddress(value).hash;
    } catch {
      return parseHash(value);
    }
  });
  return { account, lt: req.afterLt };
}

/** The block of a getBlockTransactions(Ext) request and its listing, run on one session. */
function blockListing<T>(chain: ChainReader, method: string, req: BlockTxRequest, list: (s: PoolSession, method: string, id: BlockIdExt, count: number, after?: TxPosition) => Promise<T>) {
  const count = req.count ?? DEFAULT_BLOCK_TX_COUNT;
  const after = afterOf(req);
  return chain.withSession(method, async (s) => {
    const id = await resolveBlockId(s, method, req);
    return { id, count, listing: await list(s, method, id, count, after) };
  });
}

/** The account's transactions of a getTransactions(Std) request: from lt + hash (lt 0 counts as absent, as in toncenter), else from the last one. */
function history(chain: ChainReader, method: string, req: GetTransactionsRequest | GetTransactionsStdRequest) {
  const account = address("address", req.address);
  const given: TxCursor | undefined = req.lt && req.hash !== undefined ? { lt: req.lt, hash: withInput("hash", req.hash, () => parseHash(req.hash!)) } : undefined;
  return chain.withSession(
    method,
    async (s) => {
      const from = given ?? (await lastTransaction(s, method, account));
      return { account, ...(await accountTransactions(s, method, account, from, req.limit ?? DEFAULT_LIMIT, req.toLt ?? 0n)) };
    },
    { archival: req.archival === true },
  );
}

/** The parameters of the three tryLocate* methods. */
type LocateRequest = Pick<TryLocateTxRequest, "source" | "destination" | "createdLt">;

/** tryLocate*: the transaction in getTransactions' shape. */
async function located(chain: ChainReader, method: string, side: Side, req: LocateRequest) {
  const source = address("source", req.source);
  const destination = address("destination", req.destination);
  const cell = await chain.withSession(method, (s) => locateTransaction(s, method, side, source, destination, req.createdLt));
  return transaction((side === "source" ? source : destination).workchain, cell);
}

export function transactionsMethods(chain: ChainReader) {
  return {
    async getBlockTransactions(req: GetBlockTransactionsRequest) {
      const { id, count, listing } = await blockListing(chain, "getBlockTransactions", req, blockTransactionIds);
      return create(GetBlockTransactionsResponseSchema, {
        id: tonBlockId(id),
        reqCount: count,
        incomplete: listing.incomplete,
        transactions: listing.items.map((t) => create(ShortTxIdSchema, { mode: t.mode, account: formatRaw(id.workchain, t.account), lt: t.lt, hash: t.hash })),
      });
    },

    async getBlockTransactionsExt(req: GetBlockTransactionsExtRequest) {
      const { id, count, listing } = await blockListing(chain, "getBlockTransactionsExt", req, blockTransactions);
      return create(GetBlockTransactionsExtResponseSchema, {
        id: tonBlockId(id),
        reqCount: count,
        incomplete: listing.incomplete,
        transactions: listing.items.map((t) => transactionExt(id.workchain, t.cell)),
      });
    },

    async getTransactions(req: GetTransactionsRequest) {
      const h = await history(chain, "getTransactions", req);
      return create(GetTransactionsResponseSchema, { result: h.transactions.map((t) => transaction(h.account.workchain, t.cell)) });
    },

    async getTransactionsStd(req: GetTransactionsStdRequest) {
      const h = await history(chain, "getTransactionsStd", req);
      return create(GetTransactionsStdResponseSchema, {
        transactions: h.transactions.map((t) => transactionStd(h.account.workchain, t.cell)),
        previousTransactionId: transactionId(h.next.lt, h.next.hash),
      });
    },

    async tryLocateTx(req: LocateRequest) {
      return create(TryLocateTxResponseSchema, { result: await located(chain, "tryLocateTx", "destination", req) });
    },

    // The same search as tryLocateTx (in toncenter too).
    async tryLocateResultTx(req: LocateRequest) {
      return create(TryLocateResultTxResponseSchema, { result: await located(chain, "tryLocateResultTx", "destination", req) });
    },

    async tryLocateSourceTx(req: LocateRequest) {
      return create(TryLocateSourceTxResponseSchema, { result: await located(chain, "tryLocateSourceTx", "source", req) });
    },
  };
}
