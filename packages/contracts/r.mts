import { Cell } from "@ton/core";
const bocs = process.argv.slice(2);
for (const b of bocs) {
  const c = Cell.fromBase64(b);
  console.log(c.toString(), "\n---");
}
