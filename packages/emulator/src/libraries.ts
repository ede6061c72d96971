// The public libraries a run of contract code needs: the library cells its code and data refer to
// (a library cell stands for the code cell with that hash), and the dictionary of their cells the
// emulator takes. Where the cells come from is the caller's (liteclient's fetchLibraries reads
// them from a liteserver).
import { beginCell, CellType, Dictionary, type Cell } from "@ton/core";

/**
 * Hashes of the library cells in these cell trees. Each distinct cell is visited once, without
 * recursion: code and data may be 1,024 deep.
 */
export function libraryRefs(roots: (Cell | undefined | null)[]): Buffer[] {
  const seen = new Set<string>();
  const found = new Map<string, Buffer>();
  const todo = roots.filter((r): r is Cell => !!r);
  while (todo.length > 0) {
    const c = todo.pop()!;
    const h = c.hash().toString("latin1");
    if (seen.has(h)) continue;
    seen.add(h);
    if (c.type === CellType.Library) {
      const hash = c.beginParse(true).skip(8).loadBuffer(32);
      found.set(hash.toString("hex"), hash);
    }
    todo.push(...c.refs);
  }
  return [...found.values()];
}

/** Library cells by their hash. */
export type Libraries = Dictionary<Buffer, Cell>;

export const emptyLibraries = (): Libraries => Dictionary.empty(Dictionary.Keys.Buffer(32), Dictionary.Values.Cell());

/** The libraries dictionary (HashmapE 256 ^Cell) the emulator takes; undefined when empty. */
export const librariesCell = (libs: Libraries): Cell | undefined => (libs.size ? beginCell().storeDictDirect(libs).endCell() : undefined);
