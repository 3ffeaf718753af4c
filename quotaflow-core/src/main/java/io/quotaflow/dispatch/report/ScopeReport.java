package io.quotaflow.dispatch.report;

import io.quotaflow.settings.DispatcherSettings;
import io.quotaflow.dispatch.ledger.DispatchLedger;
import io.quotaflow.status.Pace;

import java.util.function.Supplier;

/**
 * What a scope tells others: its next owner its usage ({@link UsageKeeper}), and /status and the metrics its snapshot and queue view, at most every
 * {@value #SNAPSHOT_INTERVAL_MS} ms, once it has seen work here (scopes of other tasks stay silent), and the
 * pace its calls keep.
 */
public final class ScopeReport {

    /** /status and the gauges need no more than this; every tick would re-propose a batch for nothing. */
    public static final long SNAPSHOT_INTERVAL_MS = 500;

    private final DispatcherSettings settings;
    private final DispatcherListener listener;
    private final Pace pace = new Pace();
    private long nextSnapshot;
    /** Whether this scope has seen work here. */
    private boolean active;

    /** What the scope's next owner takes over, kept as it changes. */
    private final UsageKeeper usage;

    public ScopeReport(DispatcherSettings settings, DispatcherListener listener, UsageKeeper usage) {
        this.settings = settings;
        this.listener = listener;
        this.usage = usage;
    }

    public UsageKeeper usage() {
        return usage;
    }

    /** A call of {@code size} tickets came to {@code outcome}. */
    public void completed(String scope, io.quotaflow.llm.ModelOutcome outcome, int size) {
        listener.completed(scope, outcome, size);
    }

    /** This instance no longer holds {@code scope}. */
    public void released(String scope) {
        listener.released(scope);
    }

    public Pace pace() {
        return pace;
    }

    /** The scope has seen work here: from now on it reports. */
    public void activate() {
        active = true;
    }

    public boolean active() {
        return active;
    }

    /** Reports the scope's state and queue when one is due at {@code now}. */
    public void tick(long now, Supplier<DispatcherSnapshot> snapshot, DispatchLedger ledger) {
        if (active && now >= nextSnapshot) {
            nextSnapshot = now + SNAPSHOT_INTERVAL_MS;
            listener.state(snapshot.get());
            listener.queue(QueueViews.take(settings, ledger, pace, now));
        }
    }
}
