// The syntax tree of a TL-B scheme, as written (names unresolved).

export type Expr =
  | { k: "num"; v: number }
  | { k: "name"; name: string }
  /** `Name a b`: a type applied to arguments (also a bare name with no arguments is `name`). */
  | { k: "apply"; head: string; args: Expr[] }
  | { k: "ref"; e: Expr }
  | { k: "neg"; e: Expr }
  | { k: "bin"; op: "+" | "-" | "*"; a: Expr; b: Expr }
  | { k: "cmp"; op: "=" | "<=" | "<" | ">=" | ">" | "!="; a: Expr; b: Expr }
  /** `c?T` */
  | { k: "cond"; c: Expr; e: Expr }
  /** `x . n`: bit n of x */
  | { k: "bit"; e: Expr; bit: number }
  /** `#`, `## n`, `#< n`, `#<= n` */
  | { k: "nat"; op: "#" | "##" | "#<" | "#<="; arg: Expr | null }
  /** `[ fields ]`: an anonymous constructor */
  | { k: "anon"; fields: FieldAst[] };

export type FieldAst =
  /** `{n:#}` or `{X:Type}` */
  | { k: "param"; name: string; kind: "#" | "Type"; line: number }
  /** `{ a <= b }`, `{ n = (~m) + l }` */
  | { k: "constraint"; e: Expr; line: number }
  /** `name:T`, `_:T` (name null) or a bare `T` */
  | { k: "field"; name: string | null; type: Expr; line: number };

export interface DeclarationAst {
  /** `_` for an anonymous constructor. */
  name: string;
  /** null: no tag written (`_` or a name alone), which TL-B reads as a computed tag; `#_`/`$_` is an empty tag. */
  tag: { bits: number; value: number } | null;
  fields: FieldAst[];
  typeName: string;
  args: Expr[];
  line: number;
}
