// change_dns_record sent to a domain (toncenter's ChangeDnsRecordMatcher): with a record it is
// change_dns, without one delete_dns, and without one on the zero key renew_dns (the domain's owner
// touches it to extend it).
import { DNS_OPCODES } from "@tongate/contracts";
import type { ActionRow } from "../../action.js";
import { CallContractBlock } from "../../engine/basic.js";
import { Block } from "../../engine/block.js";
import type { MatchContext } from "../../engine/context.js";
import { BlockMatcher, ContractMatcher } from "../../engine/matcher.js";
import { readChangeDnsRecord, RENEW_KEY, type DnsRecordValue } from "./bodies.js";

const BOUNCE = 0xffffffff;

interface DnsTarget {
  source: string | null;
  domain: string | null;
  /** the domain's collection, when the domain is a known item */
  collection: string | null;
}

export class ChangeDnsBlock extends Block {
  constructor(
    readonly target: DnsTarget,
    readonly key: string,
    readonly record: DnsRecordValue,
  ) {
    super("change_dns", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.target.source;
    row.destination = this.target.domain;
    row.asset = this.target.collection;
    row.change_dns_record_data = { value_schema: this.record.schema, flags: this.record.flags, address: null, key: this.key, value: this.record.value };
  }
}

export class DeleteDnsBlock extends Block {
  constructor(
    readonly target: DnsTarget,
    readonly key: string,
  ) {
    super("delete_dns", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.target.source;
    row.destination = this.target.domain;
    row.asset = this.target.collection;
    row.change_dns_record_data = { value_schema: null, flags: null, address: null, key: this.key };
  }
}

export class RenewDnsBlock extends Block {
  constructor(readonly target: DnsTarget) {
    super("renew_dns", []);
  }

  override fill(row: ActionRow): void {
    row.source = this.target.source;
    row.destination = this.target.domain;
    row.asset = this.target.collection;
  }
}

export class ChangeDnsRecordMatcher extends BlockMatcher {
  constructor() {
    super({ child: new ContractMatcher(BOUNCE, { optional: true, includeExcess: false }) });
  }

  override testSelf(block: Block): boolean {
    return block instanceof CallContractBlock && block.opcode === DNS_OPCODES.change_dns_record;
  }

  override buildBlock(block: Block, others: Block[], ctx: MatchContext): Block[] {
    const node = block.node;
    const body = readChangeDnsRecord(node.message!);
    const item = ctx.nftItem(node.destination);
    const target: DnsTarget = { source: node.source, domain: node.destination, collection: item?.collectionAddress ?? null };
    const built = body.record !== null ? new ChangeDnsBlock(target, body.key, body.record) : body.key === RENEW_KEY ? new RenewDnsBlock(target) : new DeleteDnsBlock(target, body.key);
    built.failed = block.failed;
    built.mergeBlocks([block, ...others]);
    return [built];
  }
}
