package io.quotaflow.dispatch;

import io.quotaflow.dispatch.ledger.LaneCommits;
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
    private final LaneCommits laneCommits = new LaneCommits();

    DispatchOutput(ProcessorContext<String, Outbound> context) {
        this.context = context;
    }

    /** Forwards {@code record} downstream (to the sink its {@link Outbound.Target} names). */
    @Override
    public void accept(Record<String, Outbound> record) {
        context.forward(record);
    }

    /**
     * An interactive ticket's outcome was forwarded at {@code now}: asks Kafka Streams to commit at once, so that
     * it is readable downstream without waiting for the commit interval ({@link LaneCommits}: a bounded number).
     */
    void interactiveOut(long now) {
        if (laneCommits.due(now)) {
            context.commit();
        }
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
