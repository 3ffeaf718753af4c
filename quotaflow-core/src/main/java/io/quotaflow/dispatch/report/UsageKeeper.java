package io.quotaflow.dispatch.report;

import io.quotaflow.quota.ScopeUsage;
import org.apache.kafka.streams.state.KeyValueStore;

/**
 * What a scope's next owner takes over ({@link ScopeUsage}: the day's usage, the last admission), kept in
 * its store as it changes, in the same transaction as the tick's calls in the ledger.
 */
public final class UsageKeeper {

    private final KeyValueStore<String, ScopeUsage> store;
    private final String scope;
    private ScopeUsage written;

    public UsageKeeper(KeyValueStore<String, ScopeUsage> store, String scope) {
        this.store = store;
        this.scope = scope;
    }

    /** What the previous owner left (null if none); remembered as written. */
    public ScopeUsage read() {
        written = store.get(scope);
        return written;
    }

    /** Writes {@code now} when it changed (a tick that admitted a call, a day's usage). */
    public void keep(ScopeUsage now) {
        if (now.lastAdmittedMs() > 0 && !now.equals(written)) {
            store.put(scope, now);
            written = now;
        }
    }
}
