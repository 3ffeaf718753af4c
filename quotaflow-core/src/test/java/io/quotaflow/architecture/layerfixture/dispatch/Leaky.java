package io.quotaflow.architecture.layerfixture.dispatch;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

/** A helper that forwards a record itself: what the dispatch rules must reject. */
public final class Leaky {

    public void write(ProcessorContext<String, String> context) {
        context.forward(new Record<>("key", "value", 0L));
    }
}
