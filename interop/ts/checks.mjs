// Check counting shared by client.mjs and inspector.mjs: `ok` lines with verbose, `FAIL`
// lines, and the spec's known failures (entries of `spec.known` whose `clients`,
// `transports` and `modes` lists, each optional, hold this run's): a failed check whose name
// contains an entry's `check` is counted as known and does not fail the run; an entry that
// does not happen fails it at `finish` (unless it says `"flaky": true`: a race that may go
// either way), so the spec is updated when the bug is fixed.

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
