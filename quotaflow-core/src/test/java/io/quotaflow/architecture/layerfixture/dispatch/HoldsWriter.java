package io.quotaflow.architecture.layerfixture.dispatch;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.function.Consumer;

/** A helper that holds a way to write (a forward consumer, the context) instead of returning values: rejected. */
public final class HoldsWriter {

    private final Consumer<Record<String, String>> forward;
    private final ProcessorContext<String, String> context;

    public HoldsWriter(Consumer<Record<String, String>> forward, ProcessorContext<String, String> context) {
        this.forward = forward;
        this.context = context;
    }

    public boolean holds() {
        return forward != null && context != null;
    }
}
