// Transactions and messages as toncenter renders them, from the transaction cell: tonlib's raw.transaction /
// raw.message (address objects), raw.transactionExt (plus the account), and CPP's ext.transaction /
// ext.message (string addresses and the decoded "message" of getTransactions). The rules are tonlib's:
// fee = total_fees + the forwarding fees of the outbound messages, other_fee = fee - storage_fee, addresses
// in the bounceable url-safe form ("" for an external side), a body that is a text comment (op 0, then a
// snake string) is msg.dataText, op 1 msg.dataEncryptedText, anything else msg.dataRaw with the body and
// StateInit as BoCs.
import { create } from "@bufbuild/protobuf";
import { Address, beginCell, Dictionary, loadMessage, loadTransaction, storeStateInit, type Cell, type CurrencyCollection, type ExternalAddress } from "@ton/core";
import { loadSnakeBytes } from "@tongate/contracts";
import {
  MessageSchema,
  MessageStdSchema,
  MsgDataEncryptedTextSchema,
  MsgDataRawSchema,
  MsgDataSchema,
  MsgDataTextSchema,
  TransactionExtSchema,
  TransactionSchema,
  TransactionStdSchema,
  type Message,
  type MessageStd,
  type MsgData,
  type Transaction,
  type TransactionExt,
  type TransactionStd,
} from "@tongate/proto/gen/tongate/v2/transactions_pb.js";
import { AccountAddressSchema, ExtraCurrencyBalanceSchema, type ExtraCurrencyBalance } from "@tongate/proto/gen/tongate/v2/types_pb.js";
import { formatFriendly } from "@tongate/ton";
import { transactionId } from "./values.js";

/** BoCs as tonlib serializes them for the API: with a CRC32C, without an index. */
export const boc = (cell: Cell): Buffer => cell.toBoc({ idx: false, crc32: true });

const friendly = (a: Address | ExternalAddress | null) => (Address.isAddress(a) ? formatFriendly(a.workChain, a.hash, { bounceable: true, urlSafe: true }) : "");

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The root cell's data as bytes, the last one padded with zero bits. */
function dataBytes(cell: Cell): Buffer {
  const out = Buffer.alloc(Math.ceil(cell.bits.length / 8));
  for (let i = 0; i < cell.bits.length; i++) if (cell.bits.at(i)) out[i >> 3]! |= 0x80 >> (i & 7);
  return out;
}

type DecodedBody = { kind: "text" | "encrypted"; bytes: Buffer } | { kind: "raw" };

/** tonlib's body decoding: op 0 or 1 followed by a snake string is a (plain or encrypted) text. */
function decodeBody(body: Cell): DecodedBody {
  if (body.bits.length < 32) return { kind: "raw" };
  try {
    const s = body.beginParse();
    const op = s.loadUint(32);
    if (op > 1) return { kind: "raw" };
    return { kind: op === 0 ? "text" : "encrypted", bytes: loadSnakeBytes(s) };
  } catch {
    return { kind: "raw" }; // not snake data (a partial byte, two refs, an exotic cell)
  }
}

interface MessageView {
  hash: Buffer;
  source: string;
  destination: string;
  value: bigint;
  extraCurrencies: ExtraCurrencyBalance[];
  fwdFee: bigint;
  ihrFee: bigint;
  createdLt: bigint;
  bodyHash: Buffer;
  msgData: MsgData;
  /** getTransactions' back-compatible "message": the comment's text, else base64 of the body's root data and "\n". */
  message?: string;
  messageDecodeError?: string;
}

const extraCurrencies = (c: CurrencyCollection | undefined): ExtraCurrencyBalance[] =>
  c?.other ? [...c.other].sort(([a], [b]) => a - b).map(([id, amount]) => create(ExtraCurrencyBalanceSchema, { id, amount: amount.toString() })) : [];

function messageView(cell: Cell): MessageView {
  const m = loadMessage(cell.beginParse());
  const info = m.info;
  const body = decodeBody(m.body);
  let msgData: MsgData;
  let message: string | undefined = `${dataBytes(m.body).toString("base64")}\n`;
  let messageDecodeError: string | undefined;
  if (body.kind === "text") {
    msgData = create(MsgDataSchema, { variant: { case: "text", value: create(MsgDataTextSchema, { text: body.bytes }) } });
    try {
      message = utf8.decode(body.bytes);
    } catch {
      message = undefined;
      messageDecodeError = "the text comment is not valid UTF-8 (msg_data.text has its bytes)";
    }
  } else if (body.kind === "encrypted") {
    msgData = create(MsgDataSchema, { variant: { case: "encryptedText", value: create(MsgDataEncryptedTextSchema, { text: body.bytes }) } });
  } else {
    const init = m.init ? boc(beginCell().store(storeStateInit(m.init)).endCell()) : new Uint8Array();
    msgData = create(MsgDataSchema, { variant: { case: "raw", value: create(MsgDataRawSchema, { body: boc(m.body), initState: init }) } });
  }
  const common = { hash: cell.hash(), bodyHash: m.body.hash(), msgData, message, messageDecodeError };
  switch (info.type) {
    case "internal":
      return {
        ...common,
        source: friendly(info.src),
        destination: friendly(info.dest),
        value: info.value.coins,
        extraCurrencies: extraCurrencies(info.value),
        fwdFee: info.forwardFee,
        ihrFee: info.ihrFee,
        createdLt: info.createdLt,
      };
    case "external-in":
      return { ...common, source: "", destination: friendly(info.dest), value: 0n, extraCurrencies: [], fwdFee: 0n, ihrFee: 0n, createdLt: 0n };
    case "external-out":
      return { ...common, source: friendly(info.src), destination: "", value: 0n, extraCurrencies: [], fwdFee: 0n, ihrFee: 0n, createdLt: info.createdLt };
  }
}

interface TransactionView {
  address: string;
  /** "wc:HEX" (upper case, as toncenter's C++ API renders the account). */
  account: string;
  utime: number;
  data: Buffer;
  lt: bigint;
  hash: Buffer;
  fee: bigint;
  storageFee: bigint;
  otherFee: bigint;
  inMsg?: MessageView;
  outMsgs: MessageView[];
}

function transactionView(workchain: number, cell: Cell): TransactionView {
  const tx = loadTransaction(cell.beginParse());
  // The message cells as stored (their hashes are the message hashes): ^[ in_msg:(Maybe ^Message) out_msgs:(HashmapE 15 ^Message) ].
  const msgs = cell.refs[0]!.beginParse();
  const inCell = msgs.loadMaybeRef();
  const outCells = [...msgs.loadDict(Dictionary.Keys.Uint(15), Dictionary.Values.Cell())].sort(([a], [b]) => a - b).map(([, c]) => c);
  const outMsgs = outCells.map(messageView);
  const d = tx.description;
  const storageFee = "storagePhase" in d && d.storagePhase ? d.storagePhase.storageFeesCollected : 0n;
  const fee = tx.totalFees.coins + outMsgs.reduce((sum, m) => sum + m.fwdFee, 0n);
  const id = Buffer.from(tx.address.toString(16).padStart(64, "0"), "hex");
  return {
    address: formatFriendly(workchain, id, { bounceable: true, urlSafe: true }),
    account: `${workchain}:${id.toString("hex").toUpperCase()}`,
    utime: tx.now,
    data: boc(cell),
    lt: tx.lt,
    hash: cell.hash(),
    fee,
    storageFee,
    otherFee: fee - storageFee,
    inMsg: inCell ? messageView(inCell) : undefined,
    outMsgs,
  };
}

const messageStd = (m: MessageView): MessageStd =>
  create(MessageStdSchema, {
    ...m,
    source: create(AccountAddressSchema, { accountAddress: m.source }),
    destination: create(AccountAddressSchema, { accountAddress: m.destination }),
  });

/** The fields raw.transaction, raw.transactionExt and ext.transaction share. */
const common = (t: TransactionView) => ({
  address: create(AccountAddressSchema, { accountAddress: t.address }),
  utime: t.utime,
  data: t.data,
  transactionId: transactionId(t.lt, t.hash),
  fee: t.fee,
  storageFee: t.storageFee,
  otherFee: t.otherFee,
});

/** tonlib's raw.transaction (getTransactionsStd). */
export function transactionStd(workchain: number, cell: Cell): TransactionStd {
  const t = transactionView(workchain, cell);
  return create(TransactionStdSchema, { ...common(t), inMsg: t.inMsg && messageStd(t.inMsg), outMsgs: t.outMsgs.map(messageStd) });
}

/** raw.transactionExt: raw.transaction with the account (getBlockTransactionsExt). */
export function transactionExt(workchain: number, cell: Cell): TransactionExt {
  const t = transactionView(workchain, cell);
  return create(TransactionExtSchema, { ...common(t), account: t.account, inMsg: t.inMsg && messageStd(t.inMsg), outMsgs: t.outMsgs.map(messageStd) });
}

/** ext.transaction: string addresses and the decoded "message" (getTransactions, tryLocate*). */
export function transaction(workchain: number, cell: Cell): Transaction {
  const t = transactionView(workchain, cell);
  const message = (m: MessageView): Message => create(MessageSchema, m);
  return create(TransactionSchema, { ...common(t), account: t.account, inMsg: t.inMsg && message(t.inMsg), outMsgs: t.outMsgs.map(message) });
}
