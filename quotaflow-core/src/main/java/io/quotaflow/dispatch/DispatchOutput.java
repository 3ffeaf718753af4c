package io.quotaflow.dispatch;

import io.quotaflow.dispatch.outcome.Outbound;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.function.Consumer;

/**
 * The one place the dispatcher's records leave it: every classification, retry, dead letter, hand-off
 * and route move is forwarded here, in the order it is given, to the task's {@link ProcessorContext}
 * (and so written in the task's transaction). The helpers (outcomes, cache, route moves) return
 * their records as values; only the scope's executor and the processor hold this.
 */
final class DispatchOutput implements Consumer<Record<String, Outbound>> {

    private final ProcessorContext<String, Outbound> context;

    DispatchOutput(ProcessorContext<String, Outbound> context) {
        this.context = context;
    }

    /** Forwards {@code record} downstream (to the sink its {@link Outbound.Target} names). */
    @Override
    public void accept(Record<String, Outbound> record) {
        context.forward(record);
    }

    /** Writes {@code moved} (a route move, a re-route, a hand-over), stamped with the task's wall-clock time. */
    void move(RouteMover.Moved moved) {
        accept(moved.record(now()));
    }

    /** The task's wall-clock time, which stamps a record made here (a route move). */
    long now() {
        return context.currentSystemTimeMs();
    }

    /** The Streams application id, which names the dispatch topics. */
    String applicationId() {
        return context.applicationId();
    }
}
