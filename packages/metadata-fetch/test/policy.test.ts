// The pure parts: which addresses are refused and why, how a content URI becomes the URL
// requested, and the bounded JSON parse.
import { describe, expect, it } from "vitest";
import { addressCategory, locate, MAX_URI_LENGTH, parseMetadataJson } from "@tongate/metadata-fetch";

describe("addressCategory", () => {
  it.each([
    ["0.0.0.0", "unspecified"],
    ["0.1.2.3", "unspecified"],
    ["10.0.0.1", "private"],
    ["10.255.255.255", "private"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.255", "carrier-grade NAT"],
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["169.254.169.254", "link-local"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.0.0.8", "reserved"],
    ["192.0.2.1", "documentation"],
    ["192.168.1.1", "private"],
    ["198.18.0.1", "benchmarking"],
    ["224.0.0.251", "multicast"],
    ["239.255.255.250", "multicast"],
    ["240.0.0.1", "reserved"],
    ["255.255.255.255", "broadcast"],
    ["::", "unspecified"],
    ["::1", "loopback"],
    ["0:0:0:0:0:0:0:1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["::ffff:169.254.169.254", "link-local"],
    ["::ffff:10.0.0.1", "private"],
    ["::10.0.0.1", "private"],
    ["64:ff9b::a9fe:a9fe", "link-local"],
    ["2002:c0a8:0101::1", "private"], // 6to4 of 192.168.1.1
    ["2001:db8::1", "documentation"],
    ["2001:0:4136:e378::1", "reserved"], // Teredo
    ["fc00::1", "private"],
    ["fd12:3456::1", "private"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["febf::1", "link-local"],
    ["fec0::1", "private"],
    ["ff02::1", "multicast"],
    ["100::1", "reserved"],
    ["localhost", "not an IP address"],
  ])("%s is %s", (address, category) => {
    expect(addressCategory(address)).toBe(category);
  });

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "100.128.0.1", "169.255.0.1", "192.169.0.1", "2606:4700:4700::1111", "2a00:1450:4001::200e", "::ffff:8.8.8.8", "64:ff9b::808:808", "2002:0808:0808::1"])(
    "%s is public",
    (address) => {
      expect(addressCategory(address)).toBeUndefined();
    },
  );
});

describe("locate", () => {
  const gateway = new URL("https://ipfs.io/ipfs/");
  const href = (uri: string) => {
    const located = locate(uri, gateway);
    return located.ok ? located.url.href : `refused: ${located.reason}`;
  };

  it("http(s) as written, without the fragment; trailing NULs and blanks dropped", () => {
    expect(href("https://example.com/meta.json?v=1#x")).toBe("https://example.com/meta.json?v=1");
    expect(href("https://example.com/a.json\0\0 \n")).toBe("https://example.com/a.json");
    expect(href("HTTP://Example.com/a.json")).toBe("http://example.com/a.json");
  });

  it("ipfs:// through the gateway, in both common forms", () => {
    expect(href("ipfs://QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/1.json")).toBe("https://ipfs.io/ipfs/QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG/1.json");
    expect(href("ipfs://ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi")).toBe("https://ipfs.io/ipfs/bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi");
    expect(href("ipfs://")).toBe("refused: ipfs URI without a CID");
    expect(href("ipfs://Qm/../../admin")).toMatch(/^refused: ipfs URI leads outside the gateway/u);
    expect(href("ipfs:////evil.example/x")).toMatch(/^refused: /u);
  });

  it("other schemes and junk are refused with the reason", () => {
    expect(href("ftp://example.com/x")).toBe("refused: unsupported URI scheme ftp: (only https, http and ipfs are fetched)");
    expect(href("javascript:alert(1)")).toMatch(/^refused: unsupported URI scheme javascript/u);
    expect(href("")).toBe("refused: empty URI");
    expect(href("/relative/path.json")).toMatch(/^refused: not an absolute URI/u);
    expect(href("http://")).toMatch(/^refused: invalid URL/u);
    expect(href(`https://example.com/${"a".repeat(MAX_URI_LENGTH)}`)).toBe(`refused: URI longer than ${MAX_URI_LENGTH} characters`);
  });
});

describe("parseMetadataJson", () => {
  const parse = (text: string, depth?: number) => parseMetadataJson(Buffer.from(text), depth);

  it("an object, with a BOM or not", () => {
    expect(parse('{"name":"A","attributes":[{"trait_type":"x","value":1}]}')).toEqual({ ok: true, json: { name: "A", attributes: [{ trait_type: "x", value: 1 }] } });
    expect(parse('\uFEFF{"name":"B"}')).toEqual({ ok: true, json: { name: "B" } });
  });

  it("brackets inside strings do not count as nesting", () => {
    expect(parse(`{"description":"${"[{".repeat(100)}","q":"\\"[[["}`)).toMatchObject({ ok: true });
  });

  it("too deep, invalid, not an object", () => {
    expect(parse("[".repeat(33) + "]".repeat(33))).toEqual({ ok: false, reason: "JSON nested deeper than 32 levels" });
    expect(parse("[".repeat(32) + "]".repeat(32))).toEqual({ ok: false, reason: "JSON is an array, not an object" });
    expect(parse('{"a":{"b":1}}', 1)).toEqual({ ok: false, reason: "JSON nested deeper than 1 levels" });
    expect(parse("{")).toMatchObject({ ok: false, reason: expect.stringMatching(/^invalid JSON: /u) });
    expect(parse("null")).toEqual({ ok: false, reason: "JSON is null, not an object" });
    expect(parse('"x"')).toEqual({ ok: false, reason: "JSON is a string, not an object" });
  });
});
