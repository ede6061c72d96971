// The messages between the key readers' pool (./pool.ts) and a reader thread (./reader.ts).

/** What a reader thread is started with. */
export interface KeyReaderData {
  /** the key index's directory */
  dir: string;
  /** the thread's nice value (Linux: per thread); 0 leaves it as the process's */
  nice: number;
}

export interface KeyReaderRequest {
  job: number;
  /** lookupId of the method */
  method: string;
  /** the request message, binary */
  request: Uint8Array;
}

/** The answer as toncenter's JSON text; none: the service answers on its own thread. */
export interface KeyReaderReply {
  job: number;
  json?: string;
}
