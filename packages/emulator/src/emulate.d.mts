import type { Cell } from "@ton/core";
import type { Executor } from "@ton/sandbox";

/** Inputs of one emulation, as the emulator takes them: BoCs in base64 and the params JSON. */
export interface EmulationJob {
  config: string;
  libs: string | null;
  shardAccount: string;
  message: string;
  params: string;
  /** Read outmsg_cnt of the transaction into the answer (a worker does it off the main thread). */
  countOutMessages?: boolean;
}

/** The emulator's answer, BoCs still serialized (cheap to pass between threads). */
export type Emulation =
  | { success: true; transaction: string; shardAccount: string; /** outmsg_cnt, when the worker read it. */ outMessages?: number }
  | { success: false; error: string; exitCode?: number };

export function emulateOn(executor: Executor, job: EmulationJob): Emulation;

/** outmsg_cnt of a Transaction cell. */
export function outMessagesCount(tx: Cell): number;
