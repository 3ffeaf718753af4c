package io.quotaflow.dispatch;

import io.quotaflow.dispatch.report.DispatcherListener;
import io.quotaflow.provider.RouteStateBoard;
import io.quotaflow.routing.ModelClients;
import io.quotaflow.tracing.Tracing;
import org.apache.kafka.common.utils.Time;

import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The runtime collaborators every dispatcher task is built with, beside its settings (a value: {@code DispatcherSettings}).
 *
 * @param clients  a model client per route
 * @param random   the backoff's jitter
 * @param listener what the metrics and {@code /status} hear
 * @param states   the instance's one record of route health, which each dispatcher publishes to and reads
 * @param time     the one clock ({@link Time#SYSTEM} in production; a time the test moves in tests)
 * @param tracing  where each ticket's spans go ({@link Tracing#NOOP}: traces off)
 * @param startedNanos when this instance started (its topology was built), epoch nanoseconds on {@code time}: a scope
 *                     without a usage record credits the refill since ({@link io.quotaflow.quota.QuotaLimiter#takeOver})
 */
public record DispatchParts(ModelClients clients, RandomGenerator random, DispatcherListener listener, RouteStateBoard states, Time time,
                            Tracing tracing, long startedNanos) {

    /** Parts of an instance starting now, on {@code time}. */
    public DispatchParts(ModelClients clients, RandomGenerator random, DispatcherListener listener, RouteStateBoard states, Time time,
                         Tracing tracing) {
        this(clients, random, listener, states, time, tracing, io.quotaflow.quota.EpochNanoClock.of(time).epochNanos());
    }

    public DispatchParts {
        Objects.requireNonNull(clients, "clients");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(listener, "listener");
        Objects.requireNonNull(states, "states");
        Objects.requireNonNull(time, "time");
        Objects.requireNonNull(tracing, "tracing");
    }
}
