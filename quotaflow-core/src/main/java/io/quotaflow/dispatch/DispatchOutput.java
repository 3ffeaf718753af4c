package io.quotaflow.dispatch;

import io.quotaflow.dispatch.outcome.Outbound;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.function.Consumer;

/**
 * The one place the dispatcher's records leave it: every classification, retry, dead letter, hand-off
 * and route move is forwarded here, in the order it is given, to the task's {@link ProcessorContext}
 * (and so written in the task's transaction). The outcome and cache helpers hold it as a
 * {@code Consumer} and know nothing of Kafka Streams' processor API.
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

    /** The task's wall-clock time, which stamps a record made here (a route move). */
    long now() {
        return context.currentSystemTimeMs();
    }

    /** The Streams application id, which names the dispatch topics. */
    String applicationId() {
        return context.applicationId();
    }
}
