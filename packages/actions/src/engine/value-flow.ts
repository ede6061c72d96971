// How much TON, fees and jettons each account gained or lost in a block (toncenter's
// AccountValueFlow): merged upwards with the blocks, the input of balance changes.

export interface AccountFlow {
  ton: bigint;
  fees: bigint;
  /** by jetton master */
  jettons: Map<string, bigint>;
}

export class ValueFlow {
  readonly flow = new Map<string, AccountFlow>();

  private account(a: string): AccountFlow {
    let f = this.flow.get(a);
    if (!f) {
      f = { ton: 0n, fees: 0n, jettons: new Map() };
      this.flow.set(a, f);
    }
    return f;
  }

  addTon(account: string, amount: bigint): void {
    this.account(account).ton += amount;
  }

  addFees(account: string, amount: bigint): void {
    this.account(account).fees += amount;
  }

  addJetton(account: string, jetton: string, amount: bigint): void {
    const j = this.account(account).jettons;
    j.set(jetton, (j.get(jetton) ?? 0n) + amount);
  }

  merge(other: ValueFlow): void {
    for (const [a, f] of other.flow) {
      const mine = this.account(a);
      mine.ton += f.ton;
      mine.fees += f.fees;
      for (const [j, v] of f.jettons) mine.jettons.set(j, (mine.jettons.get(j) ?? 0n) + v);
    }
  }
}
