// Fixture loading for the @tongate/block tests (/work/shared/fixtures, see its README.md).
import { readFileSync } from "node:fs";
import { Cell } from "@ton/core";

export const FIXTURES = new URL("../../../../shared/fixtures/", import.meta.url);

export function fixtureBytes(rel: string): Buffer {
  return readFileSync(new URL(rel, FIXTURES));
}

export function fixtureCells(rel: string): Cell[] {
  return Cell.fromBoc(fixtureBytes(rel));
}

export function fixtureRoot(rel: string): Cell {
  return fixtureCells(rel)[0];
}
