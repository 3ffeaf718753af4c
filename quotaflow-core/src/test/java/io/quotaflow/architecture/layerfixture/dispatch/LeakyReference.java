package io.quotaflow.architecture.layerfixture.dispatch;

import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;

import java.util.function.Consumer;

/** A helper handed {@code context::forward}: a forward by reference, which the rule rejects too. */
public final class LeakyReference {

    public Consumer<Record<String, String>> sink(ProcessorContext<String, String> context) {
        return context::forward;
    }
}
