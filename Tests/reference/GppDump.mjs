// Decodes GPP strings with iabgpp-es (vendored under iabgpp-es/, compiled by gpp-reference) for ConsentKit's
// differential test: the same job, and the same mapping onto our GPP JSON form, as GppDump.java does with
// iabgpp-java (Tests/reference/README.md).
//
// Reads one GPP string per line on standard input and prints one JSON object per line: the sections in string
// order keyed by their API prefix, the fields under the names of the IAB section specs, ids as sorted arrays,
// datetimes as ISO 8601 UTC with milliseconds; a section id iabgpp-es does not know is kept raw under its
// decimal id. A string iabgpp-es cannot decode prints {"error": "..."} with its error. Test tooling only; the
// product never uses it.
//
// Usage (by gpp-reference, which compiles iabgpp-es next to this file's copy):
//   node GppDump.mjs SPEC_NAMES_FILE < strings.txt   (gpp-reference passes Tests/reference/spec-names.txt)
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { GppModel } from "./encoder/GppModel.js";
import { HeaderV1 } from "./encoder/section/HeaderV1.js";
import { Sections } from "./encoder/section/Sections.js";
import { TcfEuV2 } from "./encoder/section/TcfEuV2.js";
import { RangeEntry } from "./encoder/datatype/RangeEntry.js";

/** The fields iabgpp-es names otherwise than the section specs, by section: read from spec-names.txt. */
const SPEC_NAMES = {};
for (const line of readFileSync(process.argv[2], "utf8").split("\n")) {
  const words = line.trim().split(/\s+/);
  if (words.length === 3 && !words[0].startsWith("#")) {
    (SPEC_NAMES[words[0]] ??= {})[words[1]] = words[2];
  }
}

/** The US "2 bits per entry" lists (N-Bitfield): printed in the string's order, not as ids. */
const N_BITFIELDS = new Set(["SensitiveDataProcessing", "KnownChildSensitiveDataConsents"]);

/** The whole string as one JSON object's text; throws whatever iabgpp-es throws. */
function dump(text) {
  // Written by hand: JavaScript objects put integer-like keys (a raw section id) first, not in string order.
  return "{" + sections(text).map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(",") + "}";
}

/** The string's sections as [key, fields] pairs in string order. */
function sections(text) {
  const model = new GppModel(text);
  model.getSectionIds(); // iabgpp-es decodes lazily: this splits the string and checks the header's count
  if (!text.startsWith("D")) {
    // iabgpp-es reads a bare TC string ("C…") as a tcfeuv2 section.
    return [[TcfEuV2.NAME, section(model.sections.get(TcfEuV2.NAME))]];
  }
  const ids = new HeaderV1(text.split("~")[0]).getFieldValue("SectionIds");
  const parts = text.split("~");
  if (new Set(ids).size !== ids.length) {
    throw new Error(`GppDump: a section id appears twice in the header (${ids}); iabgpp-es keeps only the last`);
  }
  return ids.map((id, index) => {
    const name = Sections.SECTION_ID_NAME_MAP.get(id);
    // Not a section iabgpp-es knows (1, 4, 28 and later): it skips it; we keep its text.
    return name === undefined ? [String(id), parts[index + 1] ?? ""] : [name, section(model.sections.get(name))];
  });
}

/** One section's fields, the core's then those of each sub-section present in the string. */
function section(encodable) {
  const names = SPEC_NAMES[encodable.getName()] ?? {};
  const json = {};
  // The segments and whether each was given text are private in TypeScript, plain properties at run time.
  for (const segment of encodable.segments) {
    if (segment.encodedString == null) {
      continue; // a sub-section absent from the string is never decoded
    }
    for (const field of segment.getFieldNames()) {
      if (field.endsWith("SegmentType") || field.endsWith("SegmentIncluded")) {
        continue; // structural, not printed
      }
      json[names[field] ?? field] = value(field, segment.getFieldValue(field));
    }
  }
  return json;
}

/** A field's value in the JSON form's type. */
function value(field, value) {
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "string") {
    return value;
  }
  if (value instanceof Date) {
    return value.toISOString();
  }
  if (Array.isArray(value)) {
    if (N_BITFIELDS.has(field)) {
      return value;
    }
    if (typeof value[0] === "boolean") {
      return value.flatMap((set, index) => (set ? [index + 1] : []));
    }
    if (value[0] instanceof RangeEntry) {
      return value
        .map((entry) => ({ PurposeId: entry.getKey(), RestrictionType: entry.getType(), Vendors: sortedIds(entry.getIds()) }))
        .sort((a, b) => a.PurposeId - b.PurposeId || a.RestrictionType - b.RestrictionType);
    }
    return sortedIds(value);
  }
  throw new Error(`GppDump: no JSON form for ${field} of type ${Object.prototype.toString.call(value)}`);
}

function sortedIds(ids) {
  return [...new Set(ids)].sort((a, b) => a - b);
}

/** The error and its causes, outermost first: "Type: message <- Cause: message". */
function describe(error) {
  const parts = [];
  for (let e = error; e != null; e = e.cause) {
    parts.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
  }
  return parts.join(" <- ");
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  const text = line.trim();
  if (text.length === 0) {
    continue;
  }
  let json;
  try {
    json = dump(text);
  } catch (error) {
    // iabgpp-es's own failures are data here
    json = JSON.stringify({ error: describe(error) });
  }
  process.stdout.write(json + "\n");
}
