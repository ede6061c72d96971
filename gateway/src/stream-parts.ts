// The parts of a streamed response message (option tongate.options.v1.stream_part): an event's id, its
// name and its data. SSE writes them as `id:`, `event:` and `data:` lines; a WebSocket frame is the data
// alone. A message without parts is its rendered JSON, as data.
import { getOption, hasOption, isFieldSet, type DescField, type DescMessage, type Message } from "@bufbuild/protobuf";
import { StreamPart, stream_part } from "@tongate/proto/gen/tongate/options/v1/options_pb.js";
import { renderResult } from "@tongate/proto/json/render.js";

export interface EventParts {
  /** Empty: none. */
  id: string;
  /** Empty: none (SSE's default, "message"). */
  event: string;
  data: string;
}

interface PartFields {
  id?: DescField;
  event?: DescField;
  /** The data: the first of these that is set (a string is JSON text as it is; a message is rendered). */
  data: DescField[];
}

const known = new WeakMap<DescMessage, PartFields | null>();

function partsOf(desc: DescMessage): PartFields | null {
  let p = known.get(desc);
  if (p !== undefined) return p;
  const fields: PartFields = { data: [] };
  let any = false;
  for (const f of desc.fields) {
    if (!hasOption(f, stream_part)) continue;
    const part = getOption(f, stream_part);
    any = true;
    if (part === StreamPart.ID) fields.id = f;
    else if (part === StreamPart.EVENT) fields.event = f;
    else if (part === StreamPart.DATA) fields.data.push(f);
  }
  p = any ? fields : null;
  known.set(desc, p);
  return p;
}

const text = (m: Message, f: DescField | undefined): string => {
  if (!f) return "";
  const v: unknown = Reflect.get(m, f.localName);
  return typeof v === "string" ? v : "";
};

/** The parts of one response message of type `desc`. */
export function eventParts(desc: DescMessage, m: Message): EventParts {
  const p = partsOf(desc);
  if (!p) return { id: "", event: "", data: JSON.stringify(renderResult(desc, m)) };
  let data = "";
  for (const f of p.data) {
    if (!isFieldSet(m, f)) continue;
    const v: unknown = Reflect.get(m, f.localName);
    data = f.fieldKind === "message" ? JSON.stringify(renderResult(f.message, v)) : typeof v === "string" ? v : JSON.stringify(v);
    break;
  }
  return { id: text(m, p.id), event: text(m, p.event), data };
}

/** One line's value: a line break would end the field (and start a field of the client's choosing). */
const oneLine = (s: string) => s.replace(/[\r\n]+/g, " ");

/**
 * One Server-Sent Event: `id:` and `event:` when not empty, then the data, one `data:` line per line of
 * it (a line break inside a field would end it), and the blank line that ends the event.
 */
export function sseEvent(parts: EventParts): string {
  let out = "";
  if (parts.id) out += `id: ${oneLine(parts.id)}\n`;
  if (parts.event) out += `event: ${oneLine(parts.event)}\n`;
  for (const line of parts.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** One WebSocket text frame of a response message: its data. */
export const frameOf = (desc: DescMessage, m: Message): string => eventParts(desc, m).data;
