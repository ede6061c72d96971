// Baseline for gateway benchmarks: node:http answering one fixed JSON body.
import http from "node:http";

const body = process.env.BARE_BODY ?? '{"ok":true}';
const server = http.createServer((req, res) => {
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
