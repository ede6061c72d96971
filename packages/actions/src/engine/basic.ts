// The basic blocks every event node starts as (toncenter's basic_blocks): a TON transfer (a message
// with no opcode, a text comment or an encrypted comment between two accounts), a contract call
// (any other message, external-ins and logs included), a tick-tock, and the contract deploy a
// transfer or call carries when it brought an account to life.
import type { ActionRow } from "../action.js";
import { Block } from "./block.js";
import { bodySlice, commentText, loadSnakeBytes } from "./cells.js";
import type { EventNode } from "./node.js";
import type { ValueFlow } from "./value-flow.js";

export const ENCRYPTED_COMMENT_OPCODE = 0x2167da4b;

function fillFlowFromNode(flow: ValueFlow, node: EventNode): void {
  const m = node.message;
  if (!m) return;
  if (m.value !== null && node.direction === "in") {
    if (m.destination) flow.addTon(m.destination, m.value);
    if (m.source) flow.addTon(m.source, -m.value);
    if (m.destination) flow.addFees(m.destination, node.tx.totalFees);
  } else if (node.direction === "in" && m.destination) {
    flow.addFees(m.destination, node.tx.totalFees);
  }
  for (const out of node.tx.outMsgs) if (out.fwdFee !== null && out.source) flow.addFees(out.source, out.fwdFee);
}

function isDeployment(node: EventNode): boolean {
  const tx = node.tx;
  return tx.endStatus === "active" && tx.origStatus !== "active" && tx.origStatus !== "frozen";
}

/** A plain comment or an encrypted one, read as toncenter does (a body that is not one gives no comment). */
export function readTransferComment(node: EventNode): { comment: string | null; encrypted: boolean } {
  let s;
  try {
    s = bodySlice(node.message!);
  } catch {
    return { comment: null, encrypted: false };
  }
  if (s.remainingBits < 32) return { comment: null, encrypted: false };
  const op = s.loadUint(32) >>> 0;
  const encrypted = op === ENCRYPTED_COMMENT_OPCODE;
  let raw: Buffer | null = null;
  try {
    if (s.remainingBits >= 8 && s.remainingBits % 8 === 0 && s.remainingRefs <= 1) raw = loadSnakeBytes(s);
  } catch {
    raw = null;
  }
  if (raw === null) return { comment: null, encrypted };
  return { comment: encrypted ? raw.toString("base64") : commentText(raw), encrypted };
}

export class TonTransferBlock extends Block {
  readonly source: string | null;
  readonly destination: string | null;
  readonly value: bigint | null;
  readonly comment: string | null;
  readonly encrypted: boolean;
  readonly extraCurrencies: Record<string, string> | null;

  constructor(node: EventNode) {
    super("ton_transfer", [node]);
    const m = node.message!;
    const { comment, encrypted } = readTransferComment(node);
    this.comment = comment;
    this.encrypted = encrypted;
    this.source = m.source;
    this.destination = m.destination;
    this.value = m.value;
    this.extraCurrencies = m.valueExtraCurrencies;
    if (node.failed) {
      if (m.bounce === true) this.failed = true;
      else if (node.tx.endStatus === "uninit") this.failed = false;
      // an incoming transfer the account had no gas to process still arrived
      else if (m.source !== null && node.tx.computeSkipReason === "no_gas") this.failed = false;
      else this.failed = true;
    }
    fillFlowFromNode(this.valueFlow, node);
    if (isDeployment(node)) this.children.push(new ContractDeployBlock(node));
  }

  override fill(row: ActionRow): void {
    row.value = this.value;
    row.source = this.source;
    row.destination = this.destination;
    row.ton_transfer_data = { content: this.comment, encrypted: this.encrypted };
    row.value_extra_currencies = this.extraCurrencies ?? {};
  }
}

export class CallContractBlock extends Block {
  readonly opcode: number | null;
  readonly source: string | null;
  readonly destination: string | null;
  readonly value: bigint | null;
  readonly extraCurrencies: Record<string, string> | null;
  readonly isExternal: boolean;

  constructor(node: EventNode) {
    super("call_contract", [node]);
    const m = node.message!;
    this.opcode = node.opcode;
    this.source = m.source;
    this.destination = m.destination;
    this.value = m.value;
    this.extraCurrencies = m.valueExtraCurrencies;
    this.isExternal = m.source === null;
    this.failed = node.failed;
    // a failed call that carried no value lost nothing but fees
    const hasExtra = m.valueExtraCurrencies !== null && Object.keys(m.valueExtraCurrencies).length > 0;
    if (this.failed && !m.value && this.opcode && !hasExtra) this.failed = false;
    fillFlowFromNode(this.valueFlow, node);
    if (isDeployment(node)) this.children.push(new ContractDeployBlock(node));
  }

  override fill(row: ActionRow): void {
    row.opcode = this.opcode;
    row.value = this.value;
    row.source = this.source;
    row.destination = this.destination;
    row.value_extra_currencies = this.extraCurrencies ?? {};
  }
}

/** The deploy of the account a transfer or call arrived at (surfaced as its own action). */
export class ContractDeployBlock extends Block {
  readonly opcode: number | null;
  readonly source: string | null;
  readonly destination: string | null;
  readonly value: bigint | null;
  readonly extraCurrencies: Record<string, string> | null;

  constructor(node: EventNode) {
    super("contract_deploy", [node]);
    const m = node.message!;
    this.opcode = node.opcode;
    this.source = m.source;
    this.destination = m.destination;
    this.value = m.value;
    this.extraCurrencies = m.valueExtraCurrencies;
    this.failed = node.failed;
  }

  override fill(row: ActionRow): void {
    row.opcode = this.opcode;
    row.value = this.value;
    row.source = this.source;
    row.destination = this.destination;
    row.value_extra_currencies = this.extraCurrencies ?? {};
  }
}

export class TickTockBlock extends Block {
  readonly account: string;

  constructor(node: EventNode) {
    super("tick_tock", [node]);
    this.account = node.tx.account;
    this.failed = node.failed;
  }

  override fill(row: ActionRow): void {
    row.source = this.account;
  }
}

function initOne(node: EventNode): Block {
  const op = node.opcode;
  const isTonTransfer = op === 0 || op === null || op === ENCRYPTED_COMMENT_OPCODE;
  if (node.isTickTock) return new TickTockBlock(node);
  if (isTonTransfer && node.destination !== null && node.source !== null) return new TonTransferBlock(node);
  return new CallContractBlock(node);
}

/** The basic blocks of a tree of nodes, connected as the nodes are. */
export function initBlocks(root: EventNode): Block {
  const top = initOne(root);
  const stack: [EventNode, Block][] = [[root, top]];
  while (stack.length > 0) {
    const [node, block] = stack.pop()!;
    for (const child of node.children) {
      const cb = initOne(child);
      block.connect(cb);
      stack.push([child, cb]);
    }
  }
  return top;
}
