// Check counting shared by client.mjs and inspector.mjs: `ok` lines with verbose, `FAIL`
// lines, and the spec's known failures (entries of `spec.known` whose `clients`,
// `transports` and `modes` lists, each optional, hold this run's): a failed check whose name
// contains an entry's `check` is counted as known and does not fail the run; an entry that
// does not happen fails it at `finish` (unless it says `"flaky": true`: a race that may go
// either way), so the spec is updated when the bug is fixed.

// The command line both drivers take: `--modules DIR --spec FILE --mode MODE
// [--transport NAME] [-v] (--url URL | -- COMMAND...)`. Exits 2 with `usage` on a bad one.
export function parseArgs(script, usage) {
    const argv = process.argv.slice(2);
    const opts = { command: [] };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        if (a === '--') { opts.command = argv.slice(i + 1); break; }
        else if (a === '-v') opts.verbose = true;
        else if (['--modules', '--spec', '--mode', '--url', '--transport'].includes(a)) opts[a.slice(2)] = argv[++i];
        else { console.error(`${script}: unknown argument ${a}`); process.exit(2); }
    }
    if (!opts.modules || !opts.spec || !opts.mode || !opts.url === !opts.command.length) {
        console.error(`usage: ${script} ${usage}`);
        process.exit(2);
    }
    return opts;
}

export class Checks {
    constructor(spec, { client, transport, mode, verbose }) {
        const applies = (list, value) => list === undefined || list.includes(value);
        this.known = (spec.known ?? []).filter(
            k => applies(k.clients, client) && applies(k.transports, transport) && applies(k.modes, mode)
        );
        this.seen = new Set();
        this.verbose = verbose;
        this.passed = 0;
        this.failed = 0;
        this.knownFailed = 0;
    }

    check(name, ok, detail = '') {
        if (ok) {
            this.passed++;
            if (this.verbose) console.error(`  ok   ${name}`);
            return true;
        }
        const k = this.known.find(k => name.includes(k.check));
        if (k) {
            this.knownFailed++;
            this.seen.add(k);
            console.error(`  KNOWN ${name}: ${detail} [${k.reason}]`);
        } else {
            this.failed++;
            console.error(`  FAIL ${name}: ${detail}`);
        }
        return false;
    }

    equal(name, got, want) {
        return this.check(name, JSON.stringify(got) === JSON.stringify(want), `got ${JSON.stringify(got)}, want ${JSON.stringify(want)}`);
    }

    // After a complete run: the known failures that did not happen fail it.
    finish() {
        for (const k of this.known)
            if (!this.seen.has(k) && !k.flaky)
                this.check(`known failure '${k.check}' did not happen`, false, `fixed? update the spec's known list [${k.reason}]`);
    }

    // The closing line scripts/interop.sh reads; the exit status.
    report() {
        console.log(`${this.passed} passed, ${this.failed} failed, ${this.knownFailed} known`);
        return this.failed ? 1 : 0;
    }
}

// `${NAME}` and `${NAME.FIELD...}` in a spec entry's strings (keys too): `run`, a token unique
// to this client run (`CLIENT-MODE-XXXX`, also a valid tag name), or a field of the
// structuredContent an earlier call saved (`"save": NAME`). A string that is exactly one
// reference becomes the value itself (a number stays a number); an unknown one stays as it is.
// The same in interop/python/client.py.
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*)\}/g;
const MISSING = Symbol('missing');

function lookup(path, vars) {
    let value = vars;
    for (const part of path.split('.')) {
        if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, part)) return MISSING;
        value = value[part];
    }
    return value;
}

export function runToken(client, mode) {
    return `${client}-${mode}-${Math.floor(Math.random() * 0x10000).toString(16).padStart(4, '0')}`;
}

export function expand(value, vars) {
    const text = s =>
        s.replace(VAR, (whole, path) => {
            const v = lookup(path, vars);
            return v === MISSING ? whole : typeof v === 'string' ? v : JSON.stringify(v);
        });
    if (typeof value === 'string') {
        const whole = value.match(new RegExp(`^${VAR.source}$`));
        if (whole && lookup(whole[1], vars) !== MISSING) return lookup(whole[1], vars);
        return text(value);
    }
    if (Array.isArray(value)) return value.map(v => expand(v, vars));
    if (value !== null && typeof value === 'object')
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), expand(v, vars)]));
    return value;
}

// `structuredSubset`: objects have the wanted keys (recursively), arrays the same length item
// by item, anything else is equal.
export function subset(got, want) {
    if (Array.isArray(want)) return Array.isArray(got) && got.length === want.length && want.every((w, i) => subset(got[i], w));
    if (want !== null && typeof want === 'object')
        return got !== null && typeof got === 'object' && !Array.isArray(got) && Object.entries(want).every(([k, w]) => Object.hasOwn(got, k) && subset(got[k], w));
    return got === want;
}
