// Does `toolidl import` rewrite a JavaScript pattern so that it matches what V8 matches?
//
//   node patterns.mjs TOOLIDL RESULTS
//
// Servers written in JavaScript publish the source of their `RegExp`s, read without the `u`
// flag (Annex B); JSON Schema reads a pattern in Unicode mode, which refuses much of that
// dialect, and the import rewrites such a pattern (docs/import.md). This draws patterns at
// random (seeded: the same ones every run) from pieces of both dialects, keeps those V8
// accepts only without the `u` flag, imports a listing whose one tool has a string
// parameter per pattern, and reads the patterns back from `toolidl schema`. Each rewritten
// pattern must compile with the `u` flag and `test` exactly the strings the original does
// (strings of the characters the pieces speak of); a pattern the import leaves out must be
// warned about. Prints one line; exit status 1 on a disagreement.
import { execFileSync, spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const [toolidl, results] = process.argv.slice(2);

const PIECES = [
    "a", "b", "_", "-", "@", " ", "x", "u", "k", "c", "1", "8", "A", "\\_", "\\-", "\\@",
    "\\ ", "\\a", "\\e", "\\k", "\\p", "\\x4", "\\x41", "\\u", "\\u0041", "\\u{41}", "\\0",
    "\\07", "\\1", "\\2", "\\12", "\\101", "\\8", "\\c", "\\cA", "\\c1", "{", "}", "]", "{2}",
    "{1,2}", "{,2}", "{a}", "*", "+", "?", ".", "^", "$", "|", "\\b", "\\B", "\\d", "\\w",
    "\\s", "\\W", "(", ")", "(?:", "(?=", "(?!", "[", "[^", "\\w-", "a-z", "-\\d", "\\c_",
    "(?<n>", "\\k<n>", "\\/", "/",
];
const ALPHABET = [
    "a", "b", "_", "-", "@", " ", "x", "u", "k", "c", "\\", "1", "8", "A", "z", "{", "}", "]",
    "\u0000", "\u0001", "\u0002", "\u0007", "\u0008", "\n", "\u0011", "\u001f", "é", ".", "4",
    "/", "n", "<", ">", "p",
];

// xorshift64, as the Rust test of the same rewriting.
let seed = 0x9e3779b97f4a7c15n;
const MASK = (1n << 64n) - 1n;
function next(n) {
    seed ^= (seed << 13n) & MASK;
    seed ^= seed >> 7n;
    seed ^= (seed << 17n) & MASK;
    return Number(seed % BigInt(n));
}

function compiles(source, flags) {
    try {
        new RegExp(source, flags);
        return true;
    } catch {
        return false;
    }
}

const patterns = new Set();
for (let i = 0; i < 40000 && patterns.size < 1500; i++) {
    let pattern = "";
    let open = 0;
    let inClass = false;
    for (let p = 0, n = 1 + next(7); p < n; p++) {
        const piece = PIECES[next(PIECES.length)];
        pattern += piece;
        inClass ||= piece.startsWith("[");
        open += piece.startsWith("(") ? 1 : 0;
        if (inClass && next(3) === 0) {
            pattern += "]";
            inClass = false;
        }
        if (open > 0 && !inClass && next(3) === 0) {
            pattern += ")";
            open--;
        }
    }
    if (inClass) pattern += "]";
    pattern += ")".repeat(open);
    if (compiles(pattern, "") && !compiles(pattern, "u")) patterns.add(pattern);
}

const list = [...patterns];
const properties = Object.fromEntries(
    list.map((pattern, i) => [`p${i}`, { type: "string", pattern }]),
);
const listing = {
    tools: [{ name: "patterns", inputSchema: { type: "object", properties } }],
};
const listingPath = join(results, "patterns.listing.json");
const toolPath = join(results, "patterns.tool");
writeFileSync(listingPath, JSON.stringify(listing, null, 2));
const run = spawnSync(toolidl, ["import", listingPath, "-o", toolPath], { encoding: "utf8" });
if (run.status !== 0) {
    console.error(`import patterns: toolidl import failed: ${run.stderr}`);
    process.exit(1);
}
const warnings = run.stderr;
writeFileSync(join(results, "patterns.warnings.txt"), warnings);
const schema = JSON.parse(execFileSync(toolidl, ["schema", toolPath]).toString());
const imported = schema.tools[0].inputSchema.properties;

const failures = [];
let leftOut = 0;
let tested = 0;
list.forEach((original, i) => {
    const rewritten = imported[`p${i}`]?.pattern;
    if (rewritten === undefined) {
        leftOut++;
        if (!warnings.includes(`\`p${i}\``)) {
            failures.push(`${JSON.stringify(original)}: left out without a warning`);
        }
        return;
    }
    let unicode;
    try {
        unicode = new RegExp(rewritten, "u");
    } catch (error) {
        failures.push(`${JSON.stringify(original)} → ${JSON.stringify(rewritten)}: ${error.message}`);
        return;
    }
    const annexB = new RegExp(original);
    for (let s = 0; s < 60; s++) {
        let text = "";
        for (let c = 0, n = next(7); c < n; c++) text += ALPHABET[next(ALPHABET.length)];
        tested++;
        if (annexB.test(text) !== unicode.test(text)) {
            failures.push(
                `${JSON.stringify(original)} → ${JSON.stringify(rewritten)} on ${JSON.stringify(text)}: ` +
                    `V8 without the u flag ${annexB.test(text) ? "matches" : "does not match"}`,
            );
            return;
        }
    }
});
for (const failure of failures.slice(0, 20)) console.log(`  patterns: ${failure}`);
console.log(
    `import patterns: ${list.length} patterns valid only without the u flag, ` +
        `${list.length - leftOut} rewritten, ${leftOut} left out, ${tested} strings tested: ` +
        (failures.length ? `${failures.length} disagreements` : "ok"),
);
process.exit(failures.length ? 1 : 0);
