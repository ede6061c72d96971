// tgBTC matchers: a peg-in is a long chain of teleport calls ending in mint_tokens (0xe42a879b), a
// success log and the tgBTC jetton mint; a peg-out is a jetton burn whose notification reaches the
// teleport, which logs the burn; a key rotation is a coordinator call logging the new key after
// the signers logged the key agreement. When the messages around a log do not match, the log
// alone makes a "fallback" action. The opcodes without a TL-B name are toncenter's (tgbtc.py).
import { JETTON_OPCODES, loadTgbtcBurnEvent, loadTgbtcDkgCompletedEvent, loadTgbtcMintEvent, loadTgbtcNewKeyEvent, TGBTC_OPCODES } from "@tongate/contracts";
import { CallContractBlock } from "../../engine/basic.js";
import type { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { getLabeled, isCall } from "../../engine/helpers.js";
import { BlockMatcher, BlockTypeMatcher, ContractMatcher, GenericMatcher, labeled, OrMatcher } from "../../engine/matcher.js";
import { JettonBurnBlock } from "../jettons/burn.js";
import { JettonMintBlock } from "../jettons/mint.js";
import { bitcoinTxid, hexNoPad, logAddress, TgbtcBurnBlock, TgbtcDkgLogBlock, TgbtcMintBlock, TgbtcNewKeyBlock } from "./blocks.js";

/** The teleport's first call of a peg-in, from the user's wallet. */
const PEG_IN_START = 0x3f781d24;
/** The teleport's last call of a peg-in, before it mints. */
const MINT_TOKENS = 0xe42a879b;
/** The teleport's burn call when the burn notification came another way. */
const TELEPORT_BURN = 0x587643a2;
/** The coordinator's key rotation call. */
const ROTATE_KEY = 0x690f357a;
/** The peg-out's payment request and its answer. */
const PEGOUT_REQUEST = 0xbe44e7a6;
const PEGOUT_ANSWER = 0x1a84c0e0;
/** How far back a peg-in's chain is followed to its first call. */
const MAX_PEG_IN_DEPTH = 20;

/** The peg-out request a burn or a key rotation may start, with its answer and change. */
const pegoutRequest = () =>
  new ContractMatcher(PEGOUT_REQUEST, { optional: true, children: [new ContractMatcher(PEGOUT_ANSWER, { optional: true }), new BlockTypeMatcher("ton_transfer", { optional: true })] });

export class TgBTCMintBlockMatcher extends BlockMatcher {
  constructor() {
    super({ children: [labeled("success_log", new ContractMatcher(TGBTC_OPCODES.tgbtc_mint_event)), labeled("jetton_mint", new BlockTypeMatcher("jetton_mint"))] });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, MINT_TOKENS);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const log = getLabeled("success_log", others, CallContractBlock);
    const mint = getLabeled("jetton_mint", others, JettonMintBlock);
    if (log === null || mint === null) return [];
    // the whole chain back to the peg-in's first call, with what branched off it
    const collected = new Set<Block>([block, ...others]);
    let head: CallContractBlock | null = null;
    let cur: Block = block;
    for (let i = 0; i < MAX_PEG_IN_DEPTH && cur.previous !== null; i++) {
      const prev: Block = cur.previous;
      collected.add(prev);
      for (const c of prev.next) if (c !== cur) collected.add(c);
      cur = prev;
      if (isCall(cur, PEG_IN_START)) {
        head = cur;
        break;
      }
    }
    if (head === null) return [];
    const event = loadTgbtcMintEvent(log.body());
    const built = new TgbtcMintBlock({
      sender: head.source,
      recipient: logAddress(event.recipientAddress),
      amount: event.amount,
      asset: mint.data.asset,
      bitcoinTxid: bitcoinTxid(event.bitcoinTxid),
      recipientWallet: mint.data.toJettonWallet,
      teleportContract: log.source,
      crippled: false,
    });
    built.mergeBlocks([...collected]);
    return [built];
  }
}

export class TgBTCBurnBlockMatcher extends BlockMatcher {
  constructor() {
    const children = () => [labeled("tgbtc_burn_log", new ContractMatcher(TGBTC_OPCODES.tgbtc_burn_event)), pegoutRequest()];
    super({
      child: new OrMatcher([new ContractMatcher(JETTON_OPCODES.jetton_burn_notification, { children: children() }), new ContractMatcher(TELEPORT_BURN, { children: children() })]),
    });
  }

  override testSelf(block: Block): boolean {
    return block.btype === "jetton_burn";
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    if (!(block instanceof JettonBurnBlock)) return [];
    const log = getLabeled("tgbtc_burn_log", others, CallContractBlock);
    if (log === null) return [];
    const event = loadTgbtcBurnEvent(log.body());
    const burnt = block.data.amount;
    const built = new TgbtcBurnBlock({
      sender: block.data.owner,
      jettonWallet: block.data.jettonWallet,
      asset: block.data.asset,
      // the log's amount field does not always hold the amount: the burn's is trusted first
      amount: burnt === 0n ? event.amount : burnt < event.amount ? burnt : event.amount,
      pegoutAddress: logAddress(event.pegoutAddress),
      crippled: false,
    });
    built.mergeBlocks([...others, block]);
    return [built];
  }
}

export class TgBTCNewKeyBlockMatcher extends BlockMatcher {
  constructor() {
    super({
      // the signers' key agreement is logged by the call before the rotation
      parent: new GenericMatcher(() => true, { child: labeled("dkg_completed_log", new ContractMatcher(TGBTC_OPCODES.tgbtc_dkg_completed_event)) }),
      children: [labeled("new_key_log", new ContractMatcher(TGBTC_OPCODES.tgbtc_new_key_event)), pegoutRequest()],
    });
  }

  override testSelf(block: Block): boolean {
    return isCall(block, ROTATE_KEY);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void ctx;
    const dkgLog = getLabeled("dkg_completed_log", others, CallContractBlock);
    const newKeyLog = getLabeled("new_key_log", others, CallContractBlock);
    if (dkgLog === null || newKeyLog === null) return [];
    const dkg = loadTgbtcDkgCompletedEvent(dkgLog.body());
    const newKey = loadTgbtcNewKeyEvent(newKeyLog.body());
    const built = new TgbtcNewKeyBlock({
      teleportContract: dkgLog.source,
      coordinatorContract: newKeyLog.source,
      pubkey: hexNoPad(newKey.newInternalPubkey),
      pegoutAddress: logAddress(newKey.pegoutAddress),
      timestamp: dkg.timestamp,
      amount: newKey.amount,
      crippled: false,
    });
    built.mergeBlocks([...others, block]);
    return [built];
  }
}

/** A log no fuller pattern took: the action it alone tells of. */
abstract class LogOnlyMatcher extends BlockMatcher {
  constructor(readonly opcode: number) {
    super();
  }

  override testSelf(block: Block): boolean {
    return isCall(block, this.opcode);
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    void others;
    void ctx;
    if (!(block instanceof CallContractBlock)) return [];
    const built = this.fromLog(block);
    built.mergeBlocks([block]);
    return [built];
  }

  protected abstract fromLog(log: CallContractBlock): Block;
}

export class TgBTCMintLogOnlyMatcher extends LogOnlyMatcher {
  constructor() {
    super(TGBTC_OPCODES.tgbtc_mint_event);
  }

  protected fromLog(log: CallContractBlock): Block {
    const event = loadTgbtcMintEvent(log.body());
    return new TgbtcMintBlock({
      sender: log.source,
      recipient: logAddress(event.recipientAddress),
      amount: event.amount,
      asset: null,
      bitcoinTxid: bitcoinTxid(event.bitcoinTxid),
      recipientWallet: null,
      teleportContract: log.source,
      crippled: true,
    });
  }
}

export class TgBTCBurnLogOnlyMatcher extends LogOnlyMatcher {
  constructor() {
    super(TGBTC_OPCODES.tgbtc_burn_event);
  }

  protected fromLog(log: CallContractBlock): Block {
    const event = loadTgbtcBurnEvent(log.body());
    return new TgbtcBurnBlock({
      sender: logAddress(event.senderAddress),
      jettonWallet: null,
      asset: null,
      amount: event.amount,
      pegoutAddress: logAddress(event.pegoutAddress),
      crippled: true,
    });
  }
}

export class TgBTCNewKeyLogOnlyMatcher extends LogOnlyMatcher {
  constructor() {
    super(TGBTC_OPCODES.tgbtc_new_key_event);
  }

  protected fromLog(log: CallContractBlock): Block {
    const event = loadTgbtcNewKeyEvent(log.body());
    return new TgbtcNewKeyBlock({
      coordinatorContract: log.source,
      pubkey: hexNoPad(event.newInternalPubkey),
      pegoutAddress: logAddress(event.pegoutAddress),
      amount: event.amount,
      teleportContract: null,
      timestamp: null,
      crippled: true,
    });
  }
}

export class TgBTCDkgLogOnlyMatcher extends LogOnlyMatcher {
  constructor() {
    super(TGBTC_OPCODES.tgbtc_dkg_completed_event);
  }

  protected fromLog(log: CallContractBlock): Block {
    const event = loadTgbtcDkgCompletedEvent(log.body());
    return new TgbtcDkgLogBlock({ coordinatorContract: log.source, timestamp: event.timestamp, internalPubkey: hexNoPad(event.internalPubkey) });
  }
}
