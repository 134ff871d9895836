// Reads a JSON array of Markdown documents on stdin; prints, for each, the
// fenced code blocks commonmark.js finds: [start, end, info, literal].
const commonmark = require(process.env.COMMONMARK_JS || "commonmark");
const docs = JSON.parse(require("fs").readFileSync(0, "utf8"));
const parser = new commonmark.Parser();
const out = docs.map((d) => {
  const fences = [];
  const w = parser.parse(d).walker();
  let e;
  while ((e = w.next())) {
    const n = e.node;
    if (e.entering && n.type === "code_block" && n._isFenced) {
      fences.push([n.sourcepos[0][0], n.sourcepos[1][0], n.info, n.literal]);
    }
  }
  return fences;
});
process.stdout.write(JSON.stringify(out));
