package io.quotaflow.dlq;

import java.util.Optional;
import java.util.function.Supplier;

/** Opens the originals' reader only when a truncated dead letter needs it. */
final class LazyOriginalReader implements OriginalReader {
    private final Supplier<OriginalReader> factory;
    private OriginalReader reader;

    LazyOriginalReader(Supplier<OriginalReader> factory) {
        this.factory = factory;
    }

    @Override
    public Optional<byte[]> read(String topic, int partition, long offset) {
        if (reader == null) {
            reader = factory.get();
        }
        return reader.read(topic, partition, offset);
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
        }
    }
}
