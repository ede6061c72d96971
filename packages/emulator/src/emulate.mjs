// One emulation with @ton/sandbox's Executor, its inputs already serialized: the
// account state as an earlier emulation returned it, the message as it arrived, the
// params (with the c7 previous-blocks info) once per block. The Executor's own
// runTransaction re-serializes all of them on every call, which cost more than
// emulating a wallet transfer; so this calls its emulation entry point directly.
// Plain JavaScript: the worker threads (executor-worker.mjs) load it too.

/**
 * @param {import("@ton/sandbox").Executor} executor
 * @param {import("./emulate.d.mts").EmulationJob} job
 * @returns {import("./emulate.d.mts").Emulation}
 */
export function emulateOn(executor, job) {
  const sandbox = /** @type {any} */ (executor);
  const res = sandbox.runCommon([sandbox.getEmulatorPointer(job.config, 0 /* verbosity "short" */), job.libs ?? 0, job.shardAccount, job.message, job.params]);
  const r = res.result;
  return r.success ? { success: true, transaction: r.transaction, shardAccount: r.shardAccount } : { success: false, error: r.error, exitCode: r.vmResults?.vmExitCode };
}

/**
 * outmsg_cnt of a Transaction cell: after the constructor tag, account_addr, lt, prev_trans_hash,
 * prev_trans_lt and now (transaction$0111 … outmsg_cnt:uint15 …).
 * @param {import("@ton/core").Cell} tx
 * @returns {number}
 */
export function outMessagesCount(tx) {
  return tx.beginParse().skip(4 + 256 + 64 + 256 + 64 + 32).loadUint(15);
}
