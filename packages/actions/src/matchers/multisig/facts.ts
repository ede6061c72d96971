// A multisig v2 order's facts from its persistent data, for a caller that has the order's state
// (the decoder) and for the matchers when the lookup carries the data instead of the parsed order.
import { Cell } from "@ton/core";
import { loadMultisigOrderStorage } from "@tongate/contracts";
import { rawAddress } from "../../engine/cells.js";
import type { ContractFacts, MultisigOrderFacts } from "../../interfaces.js";

/** The order's facts from its data cell (base64 BoC); null when the data is not an initialised order's. */
export function multisigOrderFactsFromData(address: string, dataBoc: string): MultisigOrderFacts | null {
  try {
    const storage = loadMultisigOrderStorage(Cell.fromBase64(dataBoc).beginParse());
    const init = storage.init;
    if (init === null) return null;
    const signers = [...init.signers.keys()].sort((a, b) => a - b).map((k) => rawAddress(init.signers.get(k))!);
    return {
      address,
      multisigAddress: rawAddress(storage.multisigAddress)!,
      signers,
      orderSeqno: storage.orderSeqno,
      threshold: init.threshold,
      sentForExecution: init.sentForExecution,
      approvalsNum: init.approvalsNum,
      expirationDate: init.expirationDate,
    };
  } catch {
    return null;
  }
}

/** The order facts of an address: given as such, or read from its data when it is a known multisig order. */
export function multisigOrderOf(facts: ContractFacts | undefined, address: string): MultisigOrderFacts | null {
  if (!facts) return null;
  if (facts.multisigOrder) return facts.multisigOrder;
  if (facts.dataBoc && facts.interfaces?.includes("multisig_order_v2")) return multisigOrderFactsFromData(address, facts.dataBoc.dataBoc);
  return null;
}
