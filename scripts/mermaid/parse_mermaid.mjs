// Parse Mermaid diagrams with Mermaid's own parser (no browser needed for parsing).
//
// Usage: node scripts/mermaid/parse_mermaid.mjs FILE...   (install once: npm ci --prefix scripts/mermaid)
// Each FILE is a .mmd diagram, or a Markdown file whose ```mermaid blocks are parsed one by one.
// Prints one line per diagram, "ok <file>#<n> <type>" or "error <file>#<n>: <message>",
// and exits with 1 if any diagram fails to parse.
import { readFileSync } from "node:fs";
import DOMPurify from "dompurify";

// Parsing needs no sanitizing, and under node DOMPurify has no DOM to work on: flowchart and
// state-diagram labels call DOMPurify.addHook / sanitize, so give it no-op ones before Mermaid loads.
for (const name of ["addHook", "removeHook", "removeHooks", "removeAllHooks"]) DOMPurify[name] ??= () => {};
DOMPurify.sanitize ??= (text) => String(text);
const { default: mermaid } = await import("mermaid");

mermaid.initialize({ startOnLoad: false });

function diagramsIn(file) {
  const text = readFileSync(file, "utf8");
  if (!file.endsWith(".md")) return [text];
  const blocks = [...text.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)];
  return blocks.map((match) => match[1]);
}

let failed = false;
for (const file of process.argv.slice(2)) {
  const diagrams = diagramsIn(file);
  for (const [index, diagram] of diagrams.entries()) {
    try {
      const result = await mermaid.parse(diagram);
      console.log(`ok ${file}#${index + 1} ${result.diagramType}`);
    } catch (error) {
      failed = true;
      const message = String(error?.message ?? error).split("\n").join(" | ");
      console.log(`error ${file}#${index + 1}: ${message}`);
    }
  }
}
process.exit(failed ? 1 : 0);
